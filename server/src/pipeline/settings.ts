// Pipeline settings with their defaults in one place. The CLI and the language server map
// their flags and configuration onto this shape.

import { availableParallelism } from 'node:os';
import { DEFAULT_PARSER_LIMITS, type ParserLimits } from '../parse/types.ts';
import { scoreVersionFromEnv, thresholdsFromEnv, type ScoreConstants, type Thresholds } from '../scoring/index.ts';

export interface PipelineSettings {
  /** Files larger than this are skipped with a reason (bytes). */
  maxFileBytes: number;
  /** How long a claimed job is reserved for its worker before anyone may take it. */
  leaseMs: number;
  /** Attempts before a job that keeps failing marks its item failed. */
  maxAttempts: number;
  /**
   * Deaths of the indexer while it ran a job alone (after a first death made the job a suspect)
   * before the job is given up as the cause (pipeline/worker.ts). Kills of an indexer that merely
   * had the file in hand never reach it.
   */
  maxLostLeases: number;
  /** Extra exclude patterns (gitignore syntax) on top of .gitignore and the built-in list. */
  exclude: string[];
  /** The relationship-score version discovery scores with (RELATA_SCORE_VERSION=v1|v2; default: the live one). */
  scoreVersion: ScoreConstants;
  /** Discovery's thresholds (RELATA_REL_MIN_SCORE, RELATA_REL_STORE_SCORE, RELATA_NEAR_DUPLICATE_SIMILARITY). */
  thresholds: Thresholds;
  /** Forget a deleted document as soon as it is tombstoned (`relata forget`); off by default (RELATA_FORGET_DELETED=1). */
  forgetDeleted: boolean;
  /** Heap a stage thread (parse, chunk, extract) may use before it is stopped and its file fails (MB; RELATA_PARSE_MEMORY_MB). */
  parseMemoryMb: number;
  /** How long one file's parse, chunking or extraction may take before its thread is stopped and the file fails (RELATA_PARSE_TIMEOUT_MS). */
  parseTimeoutMs: number;
  /** Stage threads, hence files parsed, chunked or extracted at the same time (RELATA_PARSE_LANES; default: min(2, cores)). */
  parseLanes: number;
  /** Items discovered at the same time where discovery runs in threads, the language server's SQLite store (RELATA_DISCOVERY_LANES; default: min(2, cores)). */
  discoveryLanes: number;
  /**
   * The parsers' own caps: PDF pages read (RELATA_PDF_MAX_PAGES), DOCX inflated size (RELATA_DOCX_MAX_INFLATED_MB),
   * and OCR: on unless RELATA_OCR=0, pages per PDF (RELATA_OCR_MAX_PAGES), time per file on top of the parse limit (RELATA_OCR_TIME_MS).
   */
  parserLimits: ParserLimits;
}

export const MEBIBYTE = 1024 * 1024;

export function defaultPipelineSettings(env: NodeJS.ProcessEnv = process.env): PipelineSettings {
  return {
    maxFileBytes: 50 * MEBIBYTE,
    leaseMs: positiveNumber(env.RELATA_LEASE_MS) ?? 60_000,
    maxAttempts: 3,
    maxLostLeases: 3,
    exclude: [],
    scoreVersion: scoreVersionFromEnv(env),
    thresholds: thresholdsFromEnv(env),
    forgetDeleted: env.RELATA_FORGET_DELETED === '1' || env.RELATA_FORGET_DELETED === 'true',
    parseMemoryMb: positiveNumber(env.RELATA_PARSE_MEMORY_MB) ?? 512,
    parseTimeoutMs: positiveNumber(env.RELATA_PARSE_TIMEOUT_MS) ?? 60_000,
    parseLanes: Math.floor(positiveNumber(env.RELATA_PARSE_LANES) ?? Math.min(2, availableParallelism())),
    discoveryLanes: Math.floor(positiveNumber(env.RELATA_DISCOVERY_LANES) ?? Math.min(2, availableParallelism())),
    parserLimits: {
      maxPages: Math.floor(positiveNumber(env.RELATA_PDF_MAX_PAGES) ?? DEFAULT_PARSER_LIMITS.maxPages),
      maxInflatedBytes: (positiveNumber(env.RELATA_DOCX_MAX_INFLATED_MB) ?? DEFAULT_PARSER_LIMITS.maxInflatedBytes / MEBIBYTE) * MEBIBYTE,
      ocr: env.RELATA_OCR !== '0' && env.RELATA_OCR !== 'false',
      maxOcrPages: Math.floor(positiveNumber(env.RELATA_OCR_MAX_PAGES) ?? DEFAULT_PARSER_LIMITS.maxOcrPages),
      maxOcrPixels: DEFAULT_PARSER_LIMITS.maxOcrPixels,
      ocrTimeMs: positiveNumber(env.RELATA_OCR_TIME_MS) ?? DEFAULT_PARSER_LIMITS.ocrTimeMs,
    },
  };
}

function positiveNumber(value: string | undefined): number | undefined {
  const parsed = value === undefined ? NaN : Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}
