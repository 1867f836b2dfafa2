// The scoring model (relationship-score-v2, with v1 kept beside it) as one import: the model's numbers, the signal builders, the arithmetic
// and type inference. Pure functions only; nothing here touches a store.

export * from './model.ts';
export * from './score.ts';
export * from './signals.ts';
export * from './thresholds.ts';
export * from './typeInference.ts';
export * from './v1.ts';
export * from './v2.ts';
