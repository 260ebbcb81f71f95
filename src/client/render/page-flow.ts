import { add, toNumber, ZERO, type Money } from '../../shared/money';
import type { PageLayout } from '../../shared/pagination';
import type { RenderDocument } from './types';
import { defined } from '../../shared/defined';

/** A layout made for another number of lines: lines gone are dropped, new ones go to the last page. */
export function fitPages(pages: PageLayout[], lineCount: number): PageLayout[] {
  const kept = pages.map((p) => ({ ...p, rows: p.rows.filter((r) => r < lineCount) }));
  const placed = kept.reduce((n, p) => n + p.rows.length, 0);
  if (placed === lineCount) return kept;
  const last = defined(kept.at(-1), 'kept.at(-1)');
  const known = new Set(kept.flatMap((p) => p.rows));
  last.rows = [...last.rows, ...Array.from({ length: lineCount }, (_, i) => i).filter((i) => !known.has(i))];
  return kept;
}

/** Cumulative HT amount of the lines up to the end of each page, for the carried subtotal rows. */
export function carriedAmounts(doc: RenderDocument, pages: PageLayout[]): { before: number; after: number }[] {
  let running: Money = ZERO;
  return pages.map((page) => {
    const before = toNumber(running);
    running = add(running, ...page.rows.map((r) => doc.lines[r]?.total ?? 0));
    return { before, after: toNumber(running) };
  });
}
