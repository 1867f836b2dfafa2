// Keeps onnxruntime-node loaded in the embedder's own thread for the life of the process. Its
// native binding registers itself once per process: after every thread that loaded it has
// exited, a new worker's load fails with "Module did not self-register" (measured with 1.22:
// an embedder closed and started again got TF.js, 5 times slower). While one thread holds it,
// later threads load it again without trouble. A separate file, so the calling thread loads
// only this, not the graph converter.

let held: Promise<boolean> | undefined;

/** Resolves false when onnxruntime-node cannot load here; the worker threads then fall back to TF.js. */
export function holdOnnxRuntime(): Promise<boolean> {
  held ??= import('onnxruntime-node').then(
    () => true,
    () => false,
  );
  return held;
}
