import { css } from '../../../../styled-system/css';
import { Button } from './button';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';

export const PER_PAGE_OPTIONS = [10, 25, 50, 100];

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
  const pages = Math.max(1, Math.ceil(total / perPage));
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
      <label className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        Lignes par page
        <select
          value={perPage}
          onChange={(e) => onChange({ per_page: Number(e.target.value), page: 1 })}
          className={css({
            h: '8',
            px: '2',
            borderRadius: 'md',
            borderWidth: '1px',
            borderColor: 'border.default',
            bg: 'bg.surface',
            color: 'fg.default',
          })}
        >
          {PER_PAGE_OPTIONS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
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
