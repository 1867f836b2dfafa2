// The settings an editor sends in `initializationOptions`, checked against the protocol's schema
// before the server uses them. Each setting stands alone: one of the wrong type (`maxFileMb:
// "abc"`, `exclude: "*.md"`) is reported and keeps its default, so it can neither switch a limit
// off nor exclude every file, and the right ones still apply.

import { Initialization, type ServerSettings } from '../../../shared/protocol.ts';
import { validFields } from '../../../shared/schema.ts';

export interface CheckedSettings {
  settings: ServerSettings;
  /** One line per setting that was refused (its default is used), in the schema's words. */
  problems: string[];
}

export function settingsFromInitializationOptions(raw: unknown, defaults: ServerSettings): CheckedSettings {
  if (raw === undefined || raw === null) return { settings: defaults, problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings: defaults, problems: [`initializationOptions must be an object, not ${Array.isArray(raw) ? 'an array' : typeof raw}`] };
  }
  const { settings: given, ...others } = raw as Record<string, unknown>;
  const rest = validFields(Initialization.options, others, 'initializationOptions');
  const settings = validFields(Initialization.settings, Object.hasOwn(raw, 'settings') ? given : undefined, 'initializationOptions.settings');
  return { settings: { ...defaults, ...settings.fields }, problems: [...rest.problems, ...settings.problems] };
}
