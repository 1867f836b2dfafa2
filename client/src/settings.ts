// The extension's settings (contributes.configuration in package.json), read in one place and
// mapped onto what the language server needs. The mapping is a pure function of a getter so it
// is tested without VS Code. Settings that choose a program to run or where passages go are
// read from the user's own settings only: a repository's .vscode/settings.json, trusted or not,
// must not be able to point the model endpoint at its own server or run its own "node".

import { ANSWER_PROVIDERS, type InitializationOptions, type ServerSettings } from '../../shared/protocol.ts';
import { DEFAULT_MAX_PDF_PAGES } from '../../shared/types.ts';

/** Reads one setting under "relata.", falling back to the default when unset or of the wrong type. */
export type SettingReader = <T>(key: string, fallback: T) => T;

export const RUNTIME_SETTING = 'server.runtime';

/**
 * Read from the user's settings only, by inspect(): VS Code would merge a workspace value into get().
 * Window-scoped in package.json, not machine-scoped: in a remote window (code-server, Remote-SSH,
 * WSL) VS Code drops a machine-scoped value from the user's settings.json whenever it re-reads the
 * settings after a change, though the first read at startup still has it; the server restarted on
 * that change then opened another store (the default location) and every decision seemed lost.
 * A window-scoped value is read from the user's settings (and the remote's, which win) every time.
 */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  RUNTIME_SETTING,
  'store.backend',
  'store.mongodbUri',
  'store.qdrantUrl',
  'store.dataLocation',
  'embedding.model',
  'answers.llmModelPath',
  'answers.llmEndpoint',
  'answers.allowInsecureEndpoint',
  'answers.provider',
  'answers.editorModel',
  // Model calls on every thin passage of the folder: a repository must not be able to switch them on.
  'extraction.useModel',
]);

/** What reading needs of VS Code's WorkspaceConfiguration (for the "relata" section). */
export interface SettingsSource {
  get<T>(key: string, fallback: T): T;
  inspect<T>(key: string): { defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined;
}

/** A reader that takes a user-only setting from the user's settings (or its default), never from a workspace or folder. */
export function settingReader(source: SettingsSource): SettingReader {
  return <T>(key: string, fallback: T): T => {
    if (!USER_ONLY_SETTINGS.has(key)) return source.get(key, fallback);
    const inspected = source.inspect<T>(key);
    return inspected?.globalValue ?? inspected?.defaultValue ?? fallback;
  };
}

function oneOfSetting<const T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

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
    dataLocation: text('store.dataLocation'),
    exclude: Array.isArray(exclude) ? exclude.filter((pattern): pattern is string => typeof pattern === 'string' && pattern.trim() !== '') : [],
    maxFileMb: optionalNumber('index.maxFileMb', 0.001, 10_000) ?? 50,
    maxPdfPages: Math.floor(optionalNumber('index.maxPdfPages', 1, 10_000_000) ?? DEFAULT_MAX_PDF_PAGES),
    ocr: read<unknown>('index.ocr', true) !== false,
    embeddingModel: text('embedding.model', 'default') || 'default',
    llmModelPath: text('answers.llmModelPath'),
    llmEndpoint: text('answers.llmEndpoint'),
    allowInsecureEndpoint: read<unknown>('answers.allowInsecureEndpoint', false) === true,
    answersProvider: oneOfSetting(read<unknown>('answers.provider', 'auto'), ANSWER_PROVIDERS, 'auto'),
    extractWithModel: read<unknown>('extraction.useModel', false) === true,
    minScore: optionalNumber('relationships.minScore', 0, 1),
    storeScore: optionalNumber('relationships.storeScore', 0, 1),
    forgetDeleted: read<unknown>('store.forgetDeleted', false) === true,
  };
}

/**
 * What the server is sent in `initializationOptions`, which LSP tracing logs: the settings above
 * and nothing else. The store's location and credentials go in its environment (storeConnection.ts).
 */
export function initializationOptions(read: SettingReader): InitializationOptions {
  return { settings: serverSettings(read) };
}
