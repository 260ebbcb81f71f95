import { defined } from '../../shared/defined';
/**
 * Reading real heights from the offscreen measuring pass (page-break measurement is local). Rows are
 * measured from one top to the next, so collapsed borders are counted once, as on the page.
 */
export interface Measurements {
  header: number;
  followingHeader: number;
  footer: number;
  tableHeader: number;
  rows: number[];
  totals: number;
}

const heightOf = (el: Element | null | undefined) => (el ? el.getBoundingClientRect().height : 0);
const all = (root: ParentNode, selector: string) => Array.from(root.querySelectorAll(selector));

function rowHeights(table: Element | null): number[] {
  if (!table) return [];
  const rows = all(table, 'tbody > tr');
  const tbody = table.querySelector('tbody');
  const bottom = tbody ? tbody.getBoundingClientRect().bottom : 0;
  const tops = rows.map((r) => r.getBoundingClientRect().top);
  return tops.map((top, i) => (i + 1 < tops.length ? defined(tops[i + 1], 'tops[i + 1]') : bottom) - top);
}

/** Several widths may be measured (first and following pages' margins differ): the tallest counts. */
const tallest = (root: ParentNode, name: string) => Math.max(0, ...all(root, `[data-measure="${name}"]`).map((el) => heightOf(el)));

export function readMeasurements(root: HTMLElement): Measurements {
  const tables = all(root, '[data-measure="table"] table[data-items]');
  const perTable = tables.map(rowHeights);
  const count = perTable[0]?.length ?? 0;
  return {
    header: tallest(root, 'header'),
    followingHeader: tallest(root, 'following'),
    footer: tallest(root, 'footer'),
    tableHeader: Math.max(0, ...tables.map((t) => heightOf(t.querySelector('thead')))),
    rows: Array.from({ length: count }, (_, i) => Math.max(...perTable.map((h) => h[i] ?? 0))),
    totals: tallest(root, 'totals'),
  };
}

/** Waits for every image of the measuring pass (a logo) to load or fail, so its height is known. */
export function imagesSettled(root: HTMLElement): Promise<void> {
  const pending = (Array.from(root.querySelectorAll('img')) as HTMLImageElement[]).filter((img) => !img.complete);
  return Promise.all(
    pending.map(
      (img) =>
        new Promise<void>((resolve) => {
          img.addEventListener('load', () => resolve(), { once: true });
          img.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  ).then(() => undefined);
}

/** Asks for the template's font in the weights the pages use, then waits for every font being loaded. */
export async function fontsSettled(family: string): Promise<void> {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts) return;
  const name = family.replace(/"/g, '');
  await Promise.all(['400', '600', '700'].map((w) => fonts.load(`${w} 16px "${name}"`).catch(() => []))).catch(() => undefined);
  await fonts.ready;
}
