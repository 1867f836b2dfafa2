// An image's width and height read from its header, before anything decodes it: a 20 KB PNG can
// declare 100 megapixels, and decoding it to find out would already cost the memory the pixel cap
// exists to protect.

export interface ImageSize {
  format: 'png' | 'jpeg' | 'tiff' | 'bmp' | 'gif';
  width: number;
  height: number;
}

/** The declared size, or null when the bytes are none of the formats OCR reads. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('latin1', 12, 16) === 'IHDR') {
    return { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return jpegSize(data);
  if (data.length >= 8 && (data.toString('latin1', 0, 4) === 'II*\0' || data.toString('latin1', 0, 4) === 'MM\0*')) return tiffSize(data);
  if (data.length >= 26 && data.toString('latin1', 0, 2) === 'BM') return { format: 'bmp', width: Math.abs(data.readInt32LE(18)), height: Math.abs(data.readInt32LE(22)) };
  if (data.length >= 10 && data.toString('latin1', 0, 3) === 'GIF') return { format: 'gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  return null;
}

/** The first start-of-frame marker's size: every JPEG flavour (baseline, progressive, lossless) has one. */
function jpegSize(data: Buffer): ImageSize | null {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'jpeg', height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/** ImageWidth (256) and ImageLength (257) of the first image directory. */
function tiffSize(data: Buffer): ImageSize | null {
  const little = data[0] === 0x49;
  const u16 = (at: number) => (little ? data.readUInt16LE(at) : data.readUInt16BE(at));
  const u32 = (at: number) => (little ? data.readUInt32LE(at) : data.readUInt32BE(at));
  const directory = u32(4);
  if (directory + 2 > data.length) return null;
  const entries = u16(directory);
  let width = 0;
  let height = 0;
  for (let i = 0; i < entries; i++) {
    const entry = directory + 2 + i * 12;
    if (entry + 12 > data.length) break;
    const tag = u16(entry);
    if (tag !== 256 && tag !== 257) continue;
    const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
    if (tag === 256) width = value;
    else height = value;
  }
  return width > 0 && height > 0 ? { format: 'tiff', width, height } : null;
}
