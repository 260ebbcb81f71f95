import type { ReactNode } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { useIsPhone } from '../../lib/use-media-query';
import { listStyles, SortHeader } from './list';
import { Select } from './select';
import { TagChips } from '../tags';

/**
 * Where a column's value sits on a phone card: `title` (top left, usually the link that opens the row), `amount`
 * (top right), `subtitle` (under the title), `status` (beside the subtitle), `detail` (a labelled line below, the
 * default) or `hidden` (said elsewhere on the card).
 */
export type CardSlot = 'title' | 'amount' | 'subtitle' | 'status' | 'detail' | 'hidden';

export interface ListColumn<Row> {
  key: string;
  /** The table header and the label of the card's detail line. */
  label: string;
  cell: (row: Row) => ReactNode;
  align?: 'right';
  className?: string;
  /** The sort key this column's header sorts by, if it sorts. */
  sort?: string;
  card?: CardSlot;
}

export interface ListSort {
  by: string;
  order: 'asc' | 'desc';
  onSort: (by: string, order: 'asc' | 'desc') => void;
}

const styles = {
  cards: css({ display: 'flex', flexDirection: 'column', gap: '2', listStyle: 'none', p: '0', m: '0' }),
  card: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    bg: 'bg.surface',
    p: '3',
    display: 'flex',
    flexDirection: 'column',
    gap: '1.5',
    fontSize: 'sm',
    minW: '0',
  }),
  clickable: css({ cursor: 'pointer', _hover: { bg: 'bg.subtle' } }),
  top: css({ display: 'flex', alignItems: 'flex-start', gap: '2', minW: '0' }),
  title: css({ flex: '1', minW: '0', fontWeight: '600', overflowWrap: 'anywhere' }),
  amount: css({ fontWeight: '700', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', textAlign: 'right', pt: '1' }),
  menu: css({ flexShrink: '0', mt: '-1', mr: '-1' }),
  second: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', flexWrap: 'wrap' }),
  subtitle: css({ minW: '0', overflowWrap: 'anywhere' }),
  details: css({
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: '3',
    rowGap: '0.5',
    fontSize: 'xs',
    m: '0',
    '& dt': { color: 'fg.muted' },
    '& dd': { m: '0', minW: '0', overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' },
  }),
  sortBar: css({ display: 'flex', alignItems: 'center', gap: '2', mb: '2', fontSize: 'sm', color: 'fg.muted', whiteSpace: 'nowrap' }),
  srOnly: css({ srOnly: true }),
  tableWrap: cx(listStyles.tableWrap, css({ position: 'relative' })),
  actionsCell: css({ w: '10', textAlign: 'right', whiteSpace: 'nowrap', py: '1!' }),
};

/** Clicks on the row's own links, buttons and inputs (or the portalled menu) do what they say, not "open". */
function opensRow(e: React.MouseEvent<HTMLElement>): boolean {
  const target = e.target as HTMLElement;
  return e.currentTarget.contains(target) && !target.closest('a, button, input, select, label');
}

/**
 * One list, two shapes: a table on wide screens, a list of cards on phones, with the same cells and the
 * same row actions, so a page describes its columns once. Every card's opening link and menu are real links and
 * buttons: the keyboard reaches them as in the table.
 */
export function ResponsiveList<Row>({
  label,
  rows,
  rowKey,
  columns,
  actions,
  actionsLabel = 'Actions',
  onOpen,
  sort,
  dimmed,
  testId,
}: {
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  columns: ListColumn<Row>[];
  actions?: (row: Row) => ReactNode;
  actionsLabel?: string;
  onOpen?: (row: Row) => void;
  sort?: ListSort;
  dimmed?: boolean;
  testId?: string;
}) {
  // On a phone a table pushes the amount and the status off-screen: rows become cards.
  const cards = useIsPhone();
  const dim = dimmed ? css({ opacity: 0.6 }) : undefined;
  if (cards) {
    const slot = (row: Row, name: CardSlot) =>
      columns.filter((c) => (c.card ?? 'detail') === name).map((c) => <span key={c.key}>{c.cell(row)}</span>);
    const details = columns.filter((c) => (c.card ?? 'detail') === 'detail');
    return (
      <>
        {sort && <SortSelect columns={columns} sort={sort} />}
        <ul className={cx(styles.cards, dim)} aria-label={label} data-testid={testId} data-shape="cards">
          {rows.map((row) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the card's own link opens it from the keyboard; the click only widens the target
            <li
              key={rowKey(row)}
              className={cx(styles.card, onOpen && styles.clickable)}
              onClick={onOpen ? (e) => opensRow(e) && onOpen(row) : undefined}
            >
              <div className={styles.top}>
                <div className={styles.title}>{slot(row, 'title')}</div>
                <div className={styles.amount}>{slot(row, 'amount')}</div>
                {actions && <div className={styles.menu}>{actions(row)}</div>}
              </div>
              <div className={styles.second}>
                <div className={styles.subtitle}>{slot(row, 'subtitle')}</div>
                <div>{slot(row, 'status')}</div>
              </div>
              <CardDetails row={row} columns={details} />
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <div className={styles.tableWrap}>
      <table className={cx(listStyles.table, dim)} aria-label={label} data-testid={testId} data-shape="table">
        <thead>
          <tr>
            {columns.map((c) =>
              sort && c.sort ? (
                <SortHeader
                  key={c.key}
                  column={c.sort}
                  label={c.label}
                  sortBy={sort.by}
                  sortOrder={sort.order}
                  align={c.align}
                  onSort={sort.onSort}
                />
              ) : (
                <th key={c.key} style={c.align ? { textAlign: c.align } : undefined}>
                  {c.label}
                </th>
              ),
            )}
            {actions && (
              <th>
                <span className={styles.srOnly}>{actionsLabel}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className={onOpen ? css({ cursor: 'pointer' }) : undefined}
              onClick={onOpen ? (e) => opensRow(e) && onOpen(row) : undefined}
            >
              {columns.map((c) => (
                <td key={c.key} className={c.className} style={c.align ? { textAlign: c.align } : undefined}>
                  {c.cell(row)}
                </td>
              ))}
              {actions && <td className={styles.actionsCell}>{actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The card's labelled lines; an empty value ('', null) leaves its line out rather than a label with nothing after it. */
function CardDetails<Row>({ row, columns }: { row: Row; columns: ListColumn<Row>[] }) {
  const lines = columns.map((c) => ({ column: c, value: c.cell(row) })).filter(({ value }) => value !== '' && value != null);
  if (lines.length === 0) return null;
  return (
    <dl className={styles.details}>
      {lines.map(({ column, value }) => (
        <div key={column.key} className={css({ display: 'contents' })}>
          <dt>{column.label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** On cards there are no headers to click: the same sorts, offered as one select. */
function SortSelect<Row>({ columns, sort }: { columns: ListColumn<Row>[]; sort: ListSort }) {
  const sortable = columns.filter((c) => c.sort);
  if (sortable.length === 0) return null;
  return (
    <div className={styles.sortBar}>
      <span aria-hidden="true">Trier par</span>
      <Select
        size="sm"
        aria-label="Trier par"
        value={`${sort.by}:${sort.order}`}
        onChange={(value) => {
          const [by = sort.by, order] = value.split(':');
          sort.onSort(by, order === 'asc' ? 'asc' : 'desc');
        }}
        options={sortable.flatMap((c) => [
          { value: `${c.sort}:asc`, label: `${c.label} (croissant)` },
          { value: `${c.sort}:desc`, label: `${c.label} (décroissant)` },
        ])}
      />
    </div>
  );
}

type Column<Row> = Omit<ListColumn<Row>, 'card'>;

/**
 * The shape the customers and items lists share: a reference (number, code) kept for the card's details, the name
 * that opens the row as the card's title followed by its badges ('Archivé', 'Inactif'), anything the name needs after
 * them (a restore button) and its tags, then a subtitle and a status for the card's second line; the other columns
 * are labelled details.
 */
export function namedListColumns<Row>({
  reference,
  name,
  badges,
  after,
  tags,
  amount,
  subtitle,
  status,
  details = [],
}: {
  reference: Column<Row>;
  name: Column<Row>;
  badges: (row: Row) => readonly string[];
  after?: (row: Row) => ReactNode;
  tags: (row: Row) => Parameters<typeof TagChips>[0]['tags'];
  amount?: Column<Row>;
  subtitle: Column<Row>;
  status: Column<Row>;
  details?: Column<Row>[];
}): ListColumn<Row>[] {
  return [
    { ...reference, className: listStyles.number, card: 'detail' },
    {
      ...name,
      card: 'title',
      cell: (row) => (
        <>
          {name.cell(row)}
          {badges(row).map((badge) => (
            <span key={badge} className={listStyles.badge}>
              {badge}
            </span>
          ))}
          {after?.(row)}
          <TagChips tags={tags(row)} />
        </>
      ),
    },
    ...details.map((c): ListColumn<Row> => ({ ...c, card: 'detail' })),
    ...(amount ? [{ ...amount, align: 'right', className: listStyles.number, card: 'amount' } satisfies ListColumn<Row>] : []),
    { ...subtitle, card: 'subtitle' },
    { ...status, card: 'status' },
  ];
}
