import { defined } from './defined';
/**
 * Splitting a document's table rows into A4 pages. The renderer measures real heights in the browser;
 * this decides. A page holds up to 1022 px of content, less its margins (37.8 px per cm), its header elements
 * (first page: `header`; later pages: `followingHeader`), its footer, the repeated table head, and the 40 px
 * subtotal rows when the template carries subtotals across pages. Totals always share a page with the last row
 * (never orphaned); a row taller than a whole page gets a page of its own and is flagged.
 */
export const PAGE_CONTENT_LIMIT = 1022;
export const TOTAL_ROW_HEIGHT = 40;
export const PX_PER_CM = 37.8;

export interface PageMargins {
  top: number;
  bottom: number;
}

export interface PaginationInput {
  rows: readonly number[];
  header: number;
  followingHeader?: number;
  footer: number;
  tableHeader?: number;
  totals: number;
  margins: { first: PageMargins; following: PageMargins };
  /** A "subtotal" row closes every page that continues. */
  showSubtotal?: boolean;
  /** A "subtotal carried over" row opens every page after the first. */
  showSubtotalPrevious?: boolean;
  limit?: number;
}

export interface PageLayout {
  /** Indices into `rows`, in order. */
  rows: number[];
  hasTotals: boolean;
  /** Room for content on this page, and how much of it is used. */
  capacity: number;
  used: number;
  /** Rows taller than a whole page: alone on their page, which overflows. */
  oversized: number[];
  /** The content is taller than the page: only for an oversized row, or totals that fit no page after the last row. */
  overflow: boolean;
}

export function pageCapacity(input: PaginationInput, pageIndex: number): number {
  const limit = input.limit ?? PAGE_CONTENT_LIMIT;
  const margins = pageIndex === 0 ? input.margins.first : input.margins.following;
  const header = pageIndex === 0 ? input.header : (input.followingHeader ?? 0);
  const carried = pageIndex > 0 && input.showSubtotalPrevious ? TOTAL_ROW_HEIGHT : 0;
  return limit - (margins.top + margins.bottom) * PX_PER_CM - header - input.footer - (input.tableHeader ?? 0) - carried;
}

export function paginate(input: PaginationInput): PageLayout[] {
  const closing = input.showSubtotal ? TOTAL_ROW_HEIGHT : 0;
  const pages: PageLayout[] = [];
  const open = () => {
    const page: PageLayout = {
      rows: [],
      hasTotals: false,
      capacity: pageCapacity(input, pages.length),
      used: 0,
      oversized: [],
      overflow: false,
    };
    pages.push(page);
    return page;
  };
  let page = open();
  const last = input.rows.length - 1;

  input.rows.forEach((height, i) => {
    // A page that continues keeps room for its closing subtotal row; the last row's page does not continue.
    const room = page.capacity - (i === last ? 0 : closing);
    if (page.rows.length > 0 && page.used + height > room) page = open();
    page.rows.push(i);
    page.used += height;
    if (height > page.capacity - (i === last ? 0 : closing)) {
      page.oversized.push(i);
      page.overflow = true;
    }
  });

  if (page.used + input.totals > page.capacity && page.rows.length > 1) {
    // Totals do not fit after the last row: the last row moves with them, so they are never alone on a page.
    const moved = defined(page.rows.pop(), 'page.rows.pop()');
    page.used -= defined(input.rows[moved], 'input.rows[moved]');
    page.oversized = page.oversized.filter((r) => r !== moved);
    page = open();
    page.rows.push(moved);
    page.used += defined(input.rows[moved], 'input.rows[moved]');
  }
  page.hasTotals = true;
  page.used += input.totals;
  // The last row with the totals cannot fit on any page: it stays with them, and the page is flagged.
  // (Without any row, totals taller than the first page's room overflow it: there is nothing to move.)
  const lastRow = page.rows.at(-1);
  if (page.used > page.capacity) {
    page.overflow = true;
    if (lastRow !== undefined && !page.oversized.includes(lastRow)) page.oversized.push(lastRow);
  }
  return pages;
}
