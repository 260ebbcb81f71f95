import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

export interface PngDifference {
  /** Pixels whose largest channel difference is above `threshold`, over all pixels (0 when the sizes differ: see `sizeMismatch`). */
  ratio: number;
  differing: number;
  total: number;
  sizeMismatch: boolean;
  /** The reference dimmed, the differing pixels in red: what a reader looks at when the comparison fails. */
  diff: PNG;
}

/**
 * Compares two PNG images pixel by pixel. A pixel differs when one of its channels (alpha included) moves by more
 * than `threshold` (0–255): anti-aliasing and font hinting may move an edge by a few levels from one run to the next,
 * a restyled component moves whole areas by far more.
 */
export function comparePng(actual: Buffer, reference: Buffer, threshold = 8): PngDifference {
  const a = PNG.sync.read(actual);
  const b = PNG.sync.read(reference);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const diff = new PNG({ width, height });
  const sizeMismatch = a.width !== b.width || a.height !== b.height;
  let differing = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const out = (y * width + x) * 4;
      const inA = x < a.width && y < a.height;
      const inB = x < b.width && y < b.height;
      let differs = !inA || !inB;
      if (inA && inB) {
        const ia = (y * a.width + x) * 4;
        const ib = (y * b.width + x) * 4;
        for (let c = 0; c < 4 && !differs; c += 1) differs = Math.abs((a.data[ia + c] ?? 0) - (b.data[ib + c] ?? 0)) > threshold;
      }
      if (differs) {
        differing += 1;
        diff.data[out] = 255;
        diff.data[out + 1] = 0;
        diff.data[out + 2] = 0;
        diff.data[out + 3] = 255;
      } else {
        // The reference in grey at a third of its contrast, so the red stands out and the screen stays readable.
        const ib = (y * b.width + x) * 4;
        const grey = Math.round(((b.data[ib] ?? 0) + (b.data[ib + 1] ?? 0) + (b.data[ib + 2] ?? 0)) / 3);
        const dimmed = Math.round(255 - (255 - grey) / 3);
        diff.data[out] = dimmed;
        diff.data[out + 1] = dimmed;
        diff.data[out + 2] = dimmed;
        diff.data[out + 3] = 255;
      }
    }
  }
  const total = width * height;
  return { ratio: differing / total, differing, total, sizeMismatch, diff };
}

export const writePng = (file: string, png: PNG): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, PNG.sync.write(png));
};
