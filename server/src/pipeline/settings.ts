// Pipeline settings with their defaults in one place. The CLI and the language server map
// their flags and configuration onto this shape.

import { thresholdsFromEnv, type Thresholds } from '../scoring/index.ts';

export interface PipelineSettings {
  /** Files larger than this are skipped with a reason (bytes). */
  maxFileBytes: number;
  /** How long a claimed job is reserved for its worker before anyone may take it. */
  leaseMs: number;
  /** Attempts before a job that keeps failing marks its item failed. */
  maxAttempts: number;
  /** Extra exclude patterns (gitignore syntax) on top of .gitignore and the built-in list. */
  exclude: string[];
  /** Discovery's thresholds (RELATA_REL_MIN_SCORE, RELATA_REL_STORE_SCORE, RELATA_NEAR_DUPLICATE_SIMILARITY). */
  thresholds: Thresholds;
}

export const MEBIBYTE = 1024 * 1024;

export function defaultPipelineSettings(env: NodeJS.ProcessEnv = process.env): PipelineSettings {
  return {
    maxFileBytes: 50 * MEBIBYTE,
    leaseMs: positiveNumber(env.RELATA_LEASE_MS) ?? 60_000,
    maxAttempts: 3,
    exclude: [],
    thresholds: thresholdsFromEnv(env),
  };
}

function positiveNumber(value: string | undefined): number | undefined {
  const parsed = value === undefined ? NaN : Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}
