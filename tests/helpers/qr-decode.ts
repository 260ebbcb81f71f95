import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';

/** The text of the QR code in a PNG image, as a phone's reader decodes it from pixels; null when none is found. */
export function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height, {
    inversionAttempts: 'dontInvert',
  });
  return found ? found.data : null;
}

const PDFJS = path.resolve('node_modules/pdfjs-dist/build');
const HOST = 'http://pdf-raster.test';

/** pdf.js draws the page asked for in the query into a canvas, and leaves it as a PNG data URL in `window.rendered`. */
const RASTER_PAGE = `<!doctype html><canvas></canvas><script type="module">
  import * as pdfjs from '/pdf.mjs';
  pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
  const query = new URLSearchParams(location.search);
  const doc = await pdfjs.getDocument('/document.pdf').promise;
  const sheet = await doc.getPage(Number(query.get('page')));
  const viewport = sheet.getViewport({ scale: Number(query.get('scale')) });
  const canvas = document.querySelector('canvas');
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  await sheet.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
  window.rendered = canvas.toDataURL('image/png');
</script>`;

/**
 * One page of a PDF as pixels (PNG), drawn by pdf.js in Chromium's canvas: the file as a printer or a screen shows it,
 * not the page it was printed from. `scale` 1 is 72 dpi.
 */
export async function rasterisePdfPage(browser: Browser, pdf: Uint8Array, { page = 1, scale = 3 } = {}): Promise<Buffer> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.route(`${HOST}/**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === 'document.pdf') return route.fulfill({ body: Buffer.from(pdf), contentType: 'application/pdf' });
      if (name === 'pdf.mjs' || name === 'pdf.worker.mjs')
        return route.fulfill({ path: path.join(PDFJS, name), contentType: 'text/javascript' });
      return route.fulfill({ body: RASTER_PAGE, contentType: 'text/html' });
    });
    await tab.goto(`${HOST}/?page=${page}&scale=${scale}`);
    const rendered = await tab.waitForFunction(() => (window as { rendered?: string }).rendered, undefined, { timeout: 20_000 });
    const dataUrl = String(await rendered.jsonValue());
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  } finally {
    await context.close();
  }
}

/** Keeps an image under tests/artifacts for a person to look at. */
export function keepImage(file: string, png: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, png);
}
