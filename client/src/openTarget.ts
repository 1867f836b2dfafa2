// Which file a request to open one may open. Such requests come from webviews (which render
// document text), from hovers' command links and from commands' arguments, so the folder and
// path in them are untrusted: the folder must be an open workspace folder, matched by URI, and
// the path must stay inside it, also once links are followed. Anything else is refused with the
// reason and never opened. Pure apart from reading links, so it is tested without VS Code.

import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** The open folder (its index among the workspace folders) and the file's path segments in it, or why not. */
export type OpenTarget = { folder: number; segments: string[] } | { refused: string };

/** A folder-relative path that stays inside its folder: not empty, not absolute, no "..", no backslash or drive letter. */
export function isInsideFolder(relative: string): boolean {
  if (relative === '' || relative.includes('\0') || relative.includes('\\') || /^[a-zA-Z]:/.test(relative)) return false;
  const normal = path.posix.normalize(relative);
  return !path.posix.isAbsolute(normal) && normal !== '.' && normal !== '..' && !normal.startsWith('../');
}

/**
 * @param openFolders the workspace folders' URIs, and `folder` the URI in the request, both in
 * the same normal form (vscode.Uri's toString), so equal folders are equal strings.
 */
export function openTarget(openFolders: readonly string[], folder: unknown, relative: unknown): OpenTarget {
  if (typeof relative !== 'string' || !isInsideFolder(relative)) {
    return { refused: `refusing to open ${String(relative)}: not a path inside the folder` };
  }
  const index = typeof folder === 'string' ? openFolders.indexOf(folder) : -1;
  if (index < 0) return { refused: `refusing to open ${relative}: ${String(folder)} is not an open workspace folder` };
  return { folder: index, segments: path.posix.normalize(relative).split('/') };
}

/** True when the file's real path (links followed) is outside the folder's; a missing file is left to the editor. */
export async function leavesFolder(folderPath: string, filePath: string): Promise<boolean> {
  const [realFolder, realFile] = await Promise.all([realpath(folderPath), realpath(filePath).catch(() => null)]);
  if (realFile === null) return false;
  const relative = path.relative(realFolder, realFile);
  return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}
