// VS Code's configuration as the client's settings code reads it (settings.ts SettingsSource):
// each setting's value in each scope, the innermost set one winning as in the editor. The editor's
// own API cannot run in a unit test; this is that boundary, standing in with the same precedence.

import type { SettingsSource } from '../../client/src/settings.ts';

export type SettingScopes = { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown };

export function configuration(scopes: Record<string, SettingScopes>): SettingsSource {
  return {
    get: <T>(key: string, fallback: T) => {
      const s = scopes[key];
      return (s?.workspaceFolderValue ?? s?.workspaceValue ?? s?.globalValue ?? s?.defaultValue ?? fallback) as T;
    },
    inspect: <T>(key: string) => scopes[key] as { defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined,
  };
}
