// Loads onnxruntime-node in the calling (main) thread before any USE-lite worker does, and keeps
// it. Its 1.22 binding registers once per process: measured with Node 20, once a worker has loaded
// it first, every later load fails with "Module did not self-register", in the main thread or in
// another worker, even while the first worker lives, and again after it has exited. Loaded first
// by the main thread, any number of workers load it, before or after others have exited. (The
// ONNX sentence-transformer path does the same in ../onnx/sessionThread.ts.) A file of its own,
// so that the launcher and the embedder load only this, not the graph converter.

let held: Promise<boolean> | undefined;

/** Resolves false when onnxruntime-node cannot load here; the worker threads then fall back to TF.js. */
export function holdOnnxRuntime(): Promise<boolean> {
  held ??= import('onnxruntime-node').then(
    () => true,
    () => false,
  );
  return held;
}
