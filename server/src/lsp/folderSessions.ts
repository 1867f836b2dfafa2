// The language server's open workspace folders, one FolderSession each, and how a request's folder
// or file URI finds its session. Apart from server.ts so that the request modules that look
// sessions up sit below the server that registers them.

import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { RelataErrorCodes } from '../../../shared/protocol.ts';
import { leavesFolder } from '../workspace/folderBoundary.ts';
import type { FolderSession } from './folderSession.ts';

/** The open folders, found by folder URI or by any file URI inside them. */
export class FolderSessions {
  private readonly sessions = new Map<string, FolderSession>();

  add(session: FolderSession): void {
    this.sessions.set(session.uri, session);
  }

  remove(uri: string): FolderSession | undefined {
    const session = this.sessions.get(uri);
    this.sessions.delete(uri);
    return session;
  }

  all(): FolderSession[] {
    return [...this.sessions.values()];
  }

  /** The session of a folder URI; an UnknownFolder error names the folders that are open. */
  byFolder(uri: string): FolderSession {
    const session = this.sessions.get(uri) ?? this.all().find((candidate) => samePath(candidate.folder, uriToPath(uri)));
    if (!session) {
      throw new ResponseError(
        RelataErrorCodes.UnknownFolder,
        `${uri} is not an open workspace folder (open: ${this.all().map((s) => s.uri).join(', ') || 'none'})`,
      );
    }
    return session;
  }

  /** The folder holding a file (the innermost, when folders nest), with the file's folder-relative path. */
  byFile(uri: string): { session: FolderSession; relative: string } | null {
    const file = uriToPath(uri);
    let best: { session: FolderSession; relative: string } | null = null;
    for (const session of this.all()) {
      const relative = path.relative(session.folder, file);
      if (relative === '' || leavesFolder(relative)) continue;
      if (!best || session.folder.length > best.session.folder.length) {
        best = { session, relative: relative.split(path.sep).join('/') };
      }
    }
    return best;
  }

  /** One folder when given, else every folder. */
  selected(folder: string | undefined): FolderSession[] {
    return folder ? [this.byFolder(folder)] : this.all();
  }
}

export function uriToPath(uri: string): string {
  if (!uri.startsWith('file:')) {
    throw new ResponseError(ErrorCodes.InvalidParams, `only file: URIs name folders and files, not ${uri}`);
  }
  try {
    return path.resolve(fileURLToPath(uri));
  } catch (error) {
    throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is not a valid file URI: ${(error as Error).message}`);
  }
}

const samePath = (a: string, b: string) => path.resolve(a) === path.resolve(b);
