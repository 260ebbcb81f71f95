/**
 * An image's pixel size read from its header, without decoding it. A 1 MB PNG can declare 40,000 × 40,000 pixels:
 * every browser showing it and every PDF printed with it would decode 6 GB. Null when the header is unreadable.
 */
export type ImageKind = 'png' | 'jpg' | 'webp';

export function imageDimensions(bytes: Buffer, kind: ImageKind): { width: number; height: number } | null {
  if (kind === 'png') return pngDimensions(bytes);
  if (kind === 'jpg') return jpegDimensions(bytes);
  return webpDimensions(bytes);
}

/** The IHDR chunk comes first, right after the signature. */
function pngDimensions(bytes: Buffer) {
  if (bytes.length < 24 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The first start-of-frame marker (SOF0…SOF15 but DHT, JPG and DAC) carries the frame's height then width. */
function jpegDimensions(bytes: Buffer) {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

/** The first chunk says which format: lossy VP8, lossless VP8L, or the extended VP8X with its canvas size. */
function webpDimensions(bytes: Buffer) {
  if (bytes.length < 30) return null;
  const chunk = bytes.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return null;
}
