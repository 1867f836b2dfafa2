// Where a language server offers searches to `relata search` on the same machine, and whether
// what is found there can be trusted. One Unix socket per open store, named by a digest of what
// makes a store the one the command line would open (its backend and location, the workspace, the
// embedding model), in a directory only this user can enter: $XDG_RUNTIME_DIR/relata, else
// relata-<uid> in the temporary directory. A socket or directory that another user owns, or that
// others could enter or write, is refused: through it another user could read the store's
// passages, or answer in the server's place. Windows is not offered one: a named pipe's access
// is an ACL, not a file mode, and the command line there always searches in its own process.

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EmbeddingChoice } from '../embed/choice.ts';
import type { StoreLocation } from '../store/location.ts';

/** What makes two processes' stores the same one, and their searches the same search. */
export interface StoreIdentity {
  location: StoreLocation;
  workspace: string;
  embedding: EmbeddingChoice;
}

/**
 * The longest socket path used. The operating system's limit is 104 bytes (macOS) to 108 (Linux),
 * the terminating zero included; a longer runtime directory means no socket, not a shortened one.
 */
const MAX_SOCKET_PATH_BYTES = 100;

/** Group and others: no bit at all, on the directory and on the socket. */
const OTHERS_BITS = 0o077;
/** Writable by group or others without the sticky bit: anyone could rename our directory away. */
const SHARED_WRITE = 0o022;
const STICKY = 0o1000;

/**
 * A digest of the identity: the same for the server and the command line exactly when both
 * would search the same store the same way. A data directory is compared by its real path; a
 * MongoDB URI with its credentials (they never leave this digest).
 */
export function storeDigest(identity: StoreIdentity): string {
  const { location, workspace, embedding } = identity;
  const where =
    location.backend === 'sqlite'
      ? ['sqlite', realPath(location.dataDir)]
      : ['mongodb-qdrant', location.mongodbUri, location.qdrantUrl, location.qdrantApiKey ?? '', location.folder];
  const model = embedding.kind === 'onnx' ? ['onnx', realPath(embedding.modelDir)] : [embedding.kind];
  return createHash('sha256')
    .update(JSON.stringify({ v: 1, where, workspace, model }))
    .digest('hex');
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The private directory the sockets live in; null where none is offered (Windows). */
export function socketDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'win32' || typeof process.getuid !== 'function') return null;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) return path.join(runtime, 'relata');
  return path.join(tmpdir(), `relata-${process.getuid()}`);
}

/** The socket of a store, by its digest; null where none is offered or the path would be too long. */
export function socketPath(digest: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const directory = socketDirectory(env);
  if (directory === null) return null;
  // 128 bits of the digest: short enough for the limit, far too many to collide by chance.
  const socket = path.join(directory, `${digest.slice(0, 32)}.sock`);
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES ? socket : null;
}

/** Why the socket directory must not be used, or null when only this user can enter it. */
export function unsafeDirectoryReason(directory: string): string | null {
  const stats = lstatOrNull(directory);
  if (!stats) return `${directory} does not exist`;
  if (!stats.isDirectory()) return `${directory} is not a directory${stats.isSymbolicLink() ? ' (a symbolic link)' : ''}`;
  return notPrivate(directory, stats) ?? unsafeParentReason(path.dirname(directory));
}

/** Why a socket file must not be connected to, or null when it is this user's and private. */
export function unsafeSocketReason(socket: string): string | null {
  const stats = lstatOrNull(socket);
  if (!stats) return `${socket} does not exist`;
  if (!stats.isSocket()) return `${socket} is not a socket`;
  return notPrivate(socket, stats);
}

/**
 * The server's side: creates the socket directory (0700) if it is missing and says why it cannot
 * be used if it is not private. An existing directory is never loosened or taken over.
 */
export function prepareSocketDirectory(directory: string): string | null {
  const parentReason = unsafeParentReason(path.dirname(directory));
  if (parentReason) return parentReason;
  try {
    mkdirSync(directory, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return `${directory} could not be created: ${(error as Error).message}`;
  }
  return unsafeDirectoryReason(directory);
}

function notPrivate(file: string, stats: Stats): string | null {
  if (stats.uid !== process.getuid!()) return `${file} belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & OTHERS_BITS) !== 0) return `${file} is open to other users (mode ${(stats.mode & 0o777).toString(8)})`;
  return null;
}

/** The runtime or temporary directory above ours: others may share it only if it is sticky, like /tmp. */
function unsafeParentReason(parent: string): string | null {
  const stats = lstatOrNull(parent);
  if (!stats?.isDirectory()) return `${parent} is not a directory`;
  if ((stats.mode & SHARED_WRITE) !== 0 && (stats.mode & STICKY) === 0) return `${parent} is writable by other users and not sticky`;
  return null;
}

/** The file's own stats (a link is not followed), or null when there is nothing there. */
export function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}
