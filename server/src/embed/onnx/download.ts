// First-use download of a named ONNX model, for users who have internet and would rather name
// a model than copy a folder. Each file comes with the sha256 its settings promise; a file is
// only ever used under its final name after its hash matched, so an interrupted, truncated or
// tampered download can never be loaded: bytes go to a private temporary file that is renamed
// into place only when complete and verified.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import envPaths from 'env-paths';

export interface ModelFileSource {
  /** Path inside the model folder, e.g. "model.onnx" or "onnx/model.onnx". */
  path: string;
  url: string;
  /** Expected sha256, hex. */
  sha256: string;
}

export interface ModelSource {
  /** Folder name under the cache; it also names the model in its descriptor. */
  name: string;
  files: readonly ModelFileSource[];
}

export interface DownloadProgress {
  file: string;
  receivedBytes: number;
  /** From Content-Length, when the server sends it. */
  totalBytes: number | undefined;
}

export interface DownloadOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

const PARTIAL = /\.partial-(\d+)-[0-9a-f]+$/;

/** Where downloaded models live by default: the user's cache folder, not the data folder (they can be fetched again). */
export function defaultModelCache(): string {
  return path.join(envPaths('relata', { suffix: '' }).cache, 'models');
}

/**
 * Makes sure every file of `source` is in `cacheRoot/<name>` with its expected hash, downloading
 * what is missing or wrong, and returns the folder, ready for createOnnxEmbedder.
 */
export async function ensureModelDownloaded(source: ModelSource, cacheRoot = defaultModelCache(), options: DownloadOptions = {}): Promise<string> {
  if (!/^[\w.-]+$/.test(source.name) || source.name.startsWith('.')) {
    throw new Error(`Model name "${source.name}" cannot be a folder name: use letters, digits, ".", "-" and "_"`);
  }
  const folder = path.resolve(cacheRoot, source.name);
  for (const file of source.files) {
    const target = path.resolve(folder, file.path);
    if (!target.startsWith(folder + path.sep)) throw new Error(`Model file path "${file.path}" leaves the model folder`);
    const expected = file.sha256.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(expected)) throw new Error(`Model file ${file.path}: "${file.sha256}" is not a sha256`);
    if (existsSync(target) && (await sha256Of(target)) === expected) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await removeAbandonedPartials(target);
    await download(file.url, target, expected, file.path, options);
  }
  return folder;
}

async function download(url: string, target: string, expected: string, file: string, options: DownloadOptions): Promise<void> {
  // Private to this process and attempt, so concurrent downloads of one model never share bytes.
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const response = await fetch(url, { signal: options.signal });
    if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
    const length = Number(response.headers.get('content-length'));
    const totalBytes = Number.isFinite(length) && length > 0 ? length : undefined;
    const hash = createHash('sha256');
    let receivedBytes = 0;
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          receivedBytes += chunk.length;
          options.onProgress?.({ file, receivedBytes, totalBytes });
          yield chunk;
        }
      },
      createWriteStream(partial, { flags: 'wx' }),
      { signal: options.signal },
    );
    const actual = hash.digest('hex');
    if (actual !== expected) {
      throw new Error(`${url} does not have the expected content (sha256 ${actual}, expected ${expected}); it was not used`);
    }
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw new Error(`Downloading model file ${file} failed: ${(error as Error).message}`, { cause: error });
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Temporary files left by a process that died mid-download (one still running keeps its own). */
async function removeAbandonedPartials(target: string): Promise<void> {
  const base = path.basename(target);
  for (const entry of await readdir(path.dirname(target))) {
    const owner = PARTIAL.exec(entry);
    if (!owner || !entry.startsWith(`${base}.partial-`) || isAlive(Number(owner[1]))) continue;
    await rm(path.join(path.dirname(target), entry), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
