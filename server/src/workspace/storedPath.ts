// A folder-relative path that did not come from a scan of the folder: read from an export, or from
// a store an older Relata (or an edited export) filled. The scanner only ever writes paths inside
// the folder, so such a path is data, not a place: before it is opened or stored it must still be a
// relative path inside the folder. The ways out are a `..` segment under either separator (a
// backslash is a separator on Windows, and an ordinary character elsewhere, so it is treated as
// one here), an absolute or drive path (POSIX, UNC or `C:`), and a NUL, which truncates a path in
// the system call. A name that merely begins with dots (`..notes.md`) is an ordinary name.

import path from 'node:path';

/** Why a stored folder-relative path cannot be used as one, in words; null when it can. */
export function storedPathProblem(relative: string): string | null {
  if (relative === '') return 'is empty';
  if (relative.includes('\u0000')) return 'holds a NUL character';
  if (path.posix.isAbsolute(relative) || path.win32.isAbsolute(relative) || /^[A-Za-z]:/.test(relative)) return 'is absolute, not relative to the folder';
  if (relative.split(/[\\/]/).includes('..')) return 'leaves the folder (a `..` segment)';
  return null;
}
