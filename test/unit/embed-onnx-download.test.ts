// First-use model download against a local HTTP server serving a generated model: verified
// files are placed and loadable, and nothing partial or mismatching is ever left under a file's
// real name.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createOnnxEmbedder } from '../../server/src/embed/onnx/index.ts';
import { ensureModelDownloaded, type DownloadProgress, type ModelSource } from '../../server/src/embed/onnx/download.ts';
import { tempDir } from '../support/tempFolder.ts';
import { tinyBertModel, vocabText } from '../support/tinyOnnxModel.ts';

const model = tinyBertModel({ seed: 1 });
const otherModel = tinyBertModel({ seed: 2 });
const vocab = Buffer.from(vocabText());
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('model download', () => {
  let server: Server;
  let base = '';
  const requests = new Map<string, number>();

  before(async () => {
    server = createServer((request, response) => {
      const url = request.url ?? '';
      requests.set(url, (requests.get(url) ?? 0) + 1);
      const send = (bytes: Uint8Array) => {
        response.writeHead(200, { 'content-length': bytes.length });
        response.end(bytes);
      };
      if (url === '/model.onnx') return send(model);
      if (url === '/vocab.txt') return send(vocab);
      if (url === '/tampered.onnx') return send(otherModel);
      if (url === '/truncated.onnx') {
        response.writeHead(200, { 'content-length': model.length });
        response.write(model.subarray(0, model.length >> 1));
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const source = (modelUrl = `${base}/model.onnx`): ModelSource => ({
    name: 'tiny-bert',
    files: [
      { path: 'model.onnx', url: modelUrl, sha256: sha256(model) },
      { path: 'vocab.txt', url: `${base}/vocab.txt`, sha256: sha256(vocab) },
    ],
  });

  test('downloads each file once, reports progress, and gives a folder the embedder loads', async (t) => {
    const cache = tempDir(t);
    const progress: DownloadProgress[] = [];
    const folder = await ensureModelDownloaded(source(), cache, { onProgress: (p) => progress.push(p) });
    assert.equal(folder, path.join(cache, 'tiny-bert'));
    assert.deepEqual(readFileSync(path.join(folder, 'model.onnx')), Buffer.from(model));
    const modelProgress = progress.filter((p) => p.file === 'model.onnx');
    assert.deepEqual(modelProgress.at(-1), { file: 'model.onnx', receivedBytes: model.length, totalBytes: model.length });
    assert.ok(modelProgress.every((p, i) => i === 0 || p.receivedBytes > modelProgress[i - 1]!.receivedBytes));

    const before = requests.get('/model.onnx');
    await ensureModelDownloaded(source(), cache);
    assert.equal(requests.get('/model.onnx'), before, 'a verified file is not fetched again');

    const embedder = await createOnnxEmbedder(folder, { threads: 1 });
    t.after(() => embedder.close());
    assert.match(embedder.descriptor.id, new RegExp(`^onnx:tiny-bert#${sha256(model).slice(0, 12)}$`));
  });

  test('a file whose sha256 does not match is refused and not kept', async (t) => {
    const cache = tempDir(t);
    await assert.rejects(ensureModelDownloaded(source(`${base}/tampered.onnx`), cache), /model\.onnx.*does not have the expected content/);
    assert.deepEqual(readdirSync(path.join(cache, 'tiny-bert')), [], 'neither the file nor a partial copy is left');
  });

  test('an interrupted download leaves no file under the real name', async (t) => {
    const cache = tempDir(t);
    await assert.rejects(ensureModelDownloaded(source(`${base}/truncated.onnx`), cache), /Downloading model file model\.onnx failed/);
    assert.deepEqual(readdirSync(path.join(cache, 'tiny-bert')), []);
  });

  test('an HTTP error names the URL and status', async (t) => {
    await assert.rejects(ensureModelDownloaded(source(`${base}/missing.onnx`), tempDir(t)), /missing\.onnx answered 404/);
  });

  test('a cached file that no longer matches its hash is downloaded again', async (t) => {
    const cache = tempDir(t);
    const folder = await ensureModelDownloaded(source(), cache);
    writeFileSync(path.join(folder, 'model.onnx'), 'damaged');
    await ensureModelDownloaded(source(), cache);
    assert.equal(sha256(readFileSync(path.join(folder, 'model.onnx'))), sha256(model));
  });

  test('names that would leave the cache are refused', async (t) => {
    const cache = tempDir(t);
    await assert.rejects(ensureModelDownloaded({ name: '..', files: [] }, cache), /cannot be a folder name/);
    await assert.rejects(
      ensureModelDownloaded({ name: 'ok', files: [{ path: '../escape', url: `${base}/model.onnx`, sha256: sha256(model) }] }, cache),
      /leaves the model folder/,
    );
    assert.equal(existsSync(path.join(cache, 'escape')), false);
  });
});
