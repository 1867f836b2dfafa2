// The ONNX embedder's public face: what the rest of Relata imports from this folder.

export { createOnnxEmbedder, type OnnxEmbedderOptions } from './onnxEmbedder.ts';
export { ModelFolderError } from './modelFolder.ts';
