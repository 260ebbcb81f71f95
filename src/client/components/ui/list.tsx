import { css } from '../../../../styled-system/css';
import { Button } from './button';
import { Spinner } from './spinner';

/** The pieces every list screen shares: filter sidebar, panel, table, sortable headers, empty state. */
export const listStyles = {
  layout: css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '240px 1fr' }, gap: '5', alignItems: 'start' }),
  sidebar: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
  }),
  label: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' }),
  panel: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '3', md: '4' },
    minW: '0',
  }),
  toolbar: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3', mb: '3', flexWrap: 'wrap' }),
  tableWrap: css({ overflowX: 'auto' }),
  table: css({
    w: 'full',
    fontSize: 'sm',
    borderCollapse: 'collapse',
    '& th': {
      textAlign: 'left',
      fontWeight: '700',
      color: 'fg.muted',
      fontSize: 'xs',
      textTransform: 'uppercase',
      letterSpacing: '0.04em',
      px: '3',
      py: '2',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      whiteSpace: 'nowrap',
    },
    '& td': { px: '3', py: '2.5', borderBottomWidth: '1px', borderColor: 'border.default' },
    '& tbody tr:hover': { bg: 'bg.subtle' },
  }),
  empty: css({
    textAlign: 'center',
    py: '12',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '3',
    color: 'fg.muted',
  }),
  badge: css({
    fontSize: 'xs',
    fontWeight: '700',
    color: 'warning',
    bg: 'warningSubtle',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    ml: '2',
  }),
  link: css({ fontWeight: '600', color: 'accent.fg', cursor: 'pointer', textAlign: 'left', _hover: { textDecoration: 'underline' } }),
  number: css({ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
};

const sortButton = css({
  cursor: 'pointer',
  display: 'inline-flex',
  gap: '1',
  alignItems: 'center',
  textTransform: 'inherit',
  fontWeight: 'inherit',
  _hover: { color: 'fg.default' },
});

/** A column header that sorts the list: a click sorts by it, a second click reverses. */
export function SortHeader<K extends string>({
  column,
  label,
  sortBy,
  sortOrder,
  onSort,
  align,
}: {
  column: K;
  label: string;
  sortBy: K;
  sortOrder: 'asc' | 'desc';
  onSort: (column: K, order: 'asc' | 'desc') => void;
  align?: 'right';
}) {
  const active = sortBy === column;
  return (
    <th
      aria-sort={active ? (sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}
      style={align ? { textAlign: align } : undefined}
    >
      <button type="button" className={sortButton} onClick={() => onSort(column, active && sortOrder === 'asc' ? 'desc' : 'asc')}>
        {label}
        {active ? (sortOrder === 'asc' ? ' ↑' : ' ↓') : ''}
      </button>
    </th>
  );
}

/**
 * What a list shows before it has data: a spinner while loading, and after a failure a retry (the snackbar has
 * already said why). Null once the data is there.
 */
export function ListPending({
  query,
  label,
  failed,
}: {
  query: { isPending: boolean; data: unknown; refetch: () => unknown };
  label: string;
  failed: string;
}) {
  if (query.isPending) {
    return (
      <div className={listStyles.empty} role="status">
        <Spinner label={label} />
      </div>
    );
  }
  if (query.data) return null;
  return (
    <div className={listStyles.empty}>
      <p>{failed}</p>
      <Button variant="outline" onClick={() => query.refetch()}>
        Réessayer
      </Button>
    </div>
  );
}
