// A vector as text, for an export's records and a Qdrant point's payload: apart from the record
// schemas (records.ts) so that what opens a store does not load zod.

/** Base64 of the vector's float32 values, little-endian whatever the machine. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

export function decodeVector(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`a vector of ${bytes.length} bytes is not a whole number of float32 values`);
  const vector = new Float32Array(bytes.length / 4);
  for (let index = 0; index < vector.length; index += 1) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
}
