import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../../../src/server/services/image-dimensions';

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A JPEG's first segments: SOI, an APP0 to skip, then a baseline frame header of `width` × `height`. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(12);
  sof.set([0xff, 0xc0, 0x00, 0x0b, 8]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff]), sof]);
}

function webpHeader(chunk: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.write('RIFF', 0, 'latin1');
  bytes.write('WEBP', 8, 'latin1');
  bytes.write(chunk, 12, 'latin1');
  if (chunk === 'VP8 ') {
    bytes.writeUInt16LE(width, 26);
    bytes.writeUInt16LE(height, 28);
  } else if (chunk === 'VP8L') bytes.writeUInt32LE(((height - 1) << 14) | (width - 1), 21);
  else {
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
  }
  return bytes;
}

describe('image dimensions read from the header, without decoding', () => {
  it('reads PNG, JPEG (past other segments and fill bytes) and the three WebP forms', () => {
    expect(imageDimensions(PNG_1x1, 'png')).toEqual({ width: 1, height: 1 });
    const declared = Buffer.from(PNG_1x1);
    declared.writeUInt32BE(40_000, 16);
    declared.writeUInt32BE(30_000, 20);
    expect(imageDimensions(declared, 'png')).toEqual({ width: 40_000, height: 30_000 });
    expect(imageDimensions(jpegHeader(640, 480), 'jpg')).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(webpHeader('VP8 ', 800, 600), 'webp')).toEqual({ width: 800, height: 600 });
    expect(imageDimensions(webpHeader('VP8L', 16_000, 9), 'webp')).toEqual({ width: 16_000, height: 9 });
    expect(imageDimensions(webpHeader('VP8X', 100_000, 2), 'webp')).toEqual({ width: 100_000, height: 2 });
  });

  it('answers null for a header it cannot read', () => {
    expect(imageDimensions(PNG_1x1.subarray(0, 20), 'png')).toBeNull();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2, 0, 0, 0, 0, 0, 0]), 'jpg')).toBeNull();
    expect(imageDimensions(Buffer.alloc(40), 'webp')).toBeNull();
  });
});
