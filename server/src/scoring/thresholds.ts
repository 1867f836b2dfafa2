// Reads the discovery thresholds and the scoring version from settings or the environment, refusing values that would
// make them meaningless (outside 0-1, or a storage threshold below the discard threshold).

import { DEFAULT_THRESHOLDS, LIVE_SCORE_VERSION, SCORE_VERSIONS, scoreVersion, THRESHOLD_ENV, type ScoreConstants, type Thresholds } from './model.ts';

export function thresholdsFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Thresholds> = {}): Thresholds {
  const read = (key: keyof Thresholds): number => {
    if (overrides[key] !== undefined) return checkUnit(overrides[key]!, key);
    const raw = env[THRESHOLD_ENV[key]];
    if (raw === undefined || raw.trim() === '') return DEFAULT_THRESHOLDS[key];
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new Error(`${THRESHOLD_ENV[key]}=${raw} is not a number`);
    return checkUnit(value, key);
  };
  const thresholds = { minScore: read('minScore'), storeScore: read('storeScore'), nearDuplicateSimilarity: read('nearDuplicateSimilarity') };
  if (thresholds.storeScore < thresholds.minScore) {
    throw new Error(
      `${THRESHOLD_ENV.storeScore} (${thresholds.storeScore}) must not be below ${THRESHOLD_ENV.minScore} (${thresholds.minScore})`,
    );
  }
  return thresholds;
}

function checkUnit(value: number, key: keyof Thresholds): number {
  if (value < 0 || value > 1) throw new Error(`${THRESHOLD_ENV[key]} must be between 0 and 1 (got ${value})`);
  return value;
}
export type { Thresholds } from './model.ts';

/** The scoring version RELATA_SCORE_VERSION names (v1, v2 or in full); the live one when unset. */
export function scoreVersionFromEnv(env: NodeJS.ProcessEnv = process.env): ScoreConstants {
  const asked = env.RELATA_SCORE_VERSION?.trim();
  if (!asked) return LIVE_SCORE_VERSION;
  const version = scoreVersion(asked);
  if (!version) throw new Error(`RELATA_SCORE_VERSION=${asked}: no such scoring version (${SCORE_VERSIONS.map((known) => known.version).join(', ')})`);
  return version;
}
