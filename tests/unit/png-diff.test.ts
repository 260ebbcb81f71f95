import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { comparePng } from '../helpers/png-diff';

function image(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = paint(x, y);
      const i = (y * width + x) * 4;
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

describe('comparing screenshots', () => {
  const grey = image(10, 10, () => [200, 200, 200]);

  it('finds nothing between an image and itself, nor under the threshold', () => {
    expect(comparePng(grey, grey).ratio).toBe(0);
    expect(
      comparePng(
        image(10, 10, () => [204, 196, 200]),
        grey,
      ).differing,
    ).toBe(0);
  });

  it('counts the pixels moved beyond the threshold and paints them red in the diff', () => {
    const bordered = image(10, 10, (x) => (x === 0 ? [221, 225, 230] : [200, 200, 200]));
    const result = comparePng(bordered, grey);
    expect(result.differing).toBe(10);
    expect(result.ratio).toBeCloseTo(0.1);
    expect([...result.diff.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    // An unchanged pixel is the reference in dimmed grey.
    expect([...result.diff.data.subarray(4, 8)]).toEqual([237, 237, 237, 255]);
  });

  it('fails every pixel outside the other image when the sizes differ', () => {
    const result = comparePng(
      image(10, 12, () => [200, 200, 200]),
      grey,
    );
    expect(result.sizeMismatch).toBe(true);
    expect(result.differing).toBe(20);
  });
});
