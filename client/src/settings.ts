// The extension's settings (contributes.configuration in package.json), read in one place and
// mapped onto what the language server needs. The mapping is a pure function of a getter so it
// is tested without VS Code.

import type { ServerSettings } from '../../shared/protocol.ts';

/** Reads one setting under "relata.", falling back to the default when unset or of the wrong type. */
export type SettingReader = <T>(key: string, fallback: T) => T;

export const RUNTIME_SETTING = 'server.runtime';

export function serverSettings(read: SettingReader): ServerSettings {
  const text = (key: string, fallback = '') => {
    const value = read<unknown>(key, fallback);
    return typeof value === 'string' ? value.trim() : fallback;
  };
  const optionalNumber = (key: string, min: number, max: number) => {
    const value = read<unknown>(key, null);
    return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : null;
  };
  const exclude = read<unknown>('index.exclude', []);
  return {
    storeBackend: 'sqlite',
    dataLocation: text('store.dataLocation'),
    exclude: Array.isArray(exclude) ? exclude.filter((pattern): pattern is string => typeof pattern === 'string' && pattern.trim() !== '') : [],
    maxFileMb: optionalNumber('index.maxFileMb', 0.001, 10_000) ?? 50,
    embeddingModel: text('embedding.model', 'default') || 'default',
    llmModelPath: text('answers.llmModelPath'),
    llmEndpoint: text('answers.llmEndpoint'),
    minScore: optionalNumber('relationships.minScore', 0, 1),
    storeScore: optionalNumber('relationships.storeScore', 0, 1),
  };
}
