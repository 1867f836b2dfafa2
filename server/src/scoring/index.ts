// relationship-score-v1 as one import: the model's numbers, the signal builders, the arithmetic
// and type inference. Pure functions only; nothing here touches a store.

export * from './model.ts';
export * from './score.ts';
export * from './signals.ts';
export * from './thresholds.ts';
export * from './typeInference.ts';
