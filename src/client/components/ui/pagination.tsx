import { css } from '../../../../styled-system/css';
import { Button } from './button';
import { Select } from './select';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';

export const PER_PAGE_OPTIONS = [10, 25, 50, 100];

/** How many pages `total` rows make, one at least (an empty list has its one empty page). */
export const pageCount = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** Page navigation for `{ total, data }` lists: "1–10 sur 42", previous/next, rows per page. */
export function Pagination({
  page,
  perPage,
  total,
  onChange,
}: {
  page: number;
  perPage: number;
  total: number;
  onChange: (patch: { page?: number; per_page?: number }) => void;
}) {
  const pages = pageCount(total, perPage);
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <nav
      aria-label="Pagination"
      className={css({
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: '3',
        flexWrap: 'wrap',
        fontSize: 'sm',
        color: 'fg.muted',
        pt: '3',
      })}
    >
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        {/* The words for the eye, the same words as the select's name for screen readers. */}
        <span aria-hidden="true">Lignes par page</span>
        <Select
          size="inline"
          aria-label="Lignes par page"
          className={css({ w: '20' })}
          value={String(perPage)}
          onChange={(value) => onChange({ per_page: Number(value), page: 1 })}
          options={PER_PAGE_OPTIONS.map((n) => ({ value: String(n), label: String(n) }))}
        />
      </div>
      <span aria-live="polite">
        {from}–{to} sur {total}
      </span>
      <Button variant="ghost" size="icon" aria-label="Page précédente" disabled={page <= 1} onClick={() => onChange({ page: page - 1 })}>
        <ChevronLeftIcon />
      </Button>
      <Button variant="ghost" size="icon" aria-label="Page suivante" disabled={page >= pages} onClick={() => onChange({ page: page + 1 })}>
        <ChevronRightIcon />
      </Button>
    </nav>
  );
}
