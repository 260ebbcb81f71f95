import { css, cx } from '../../../styled-system/css';
import { useIsPhone } from '../lib/use-media-query';
import { listStyles } from './ui/list';

// A page's own layout in grey while its data comes: the real columns of a list, the dashboard's cards, a form's
// fields. Nothing moves when the data lands, and a slow answer reads as "coming", not "stuck".

const styles = {
  bar: css({
    display: 'block',
    h: '3',
    borderRadius: 'full',
    bg: 'bg.muted',
    animation: 'pulse 1.6s ease-in-out infinite',
    _motionReduce: { animation: 'none' },
  }),
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '3', md: '4' },
    minW: '0',
  }),
  stack: css({ display: 'flex', flexDirection: 'column', gap: '4' }),
  kpis: css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
    gap: '4',
  }),
  right: css({ textAlign: 'right!', '& > span': { ml: 'auto' } }),
  cards: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  toolbar: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3', mb: '4' }),
  fields: css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, gap: '5', mt: '4' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '2' }),
  input: css({ h: '10', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border.default' }),
  chart: css({ h: '48', display: 'flex', alignItems: 'flex-end', gap: '3', mt: '4' }),
  column: css({ flex: '1', borderTopRadius: 'md', bg: 'bg.muted', animation: 'pulse 1.6s ease-in-out infinite' }),
  grid: css({ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: '1', mt: '4' }),
  cell: css({ h: '24', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.default' }),
};

/** A grey line of text, `width` of its box. */
export function Bar({ width = '70%', height, className }: { width?: string | number; height?: string | number; className?: string }) {
  return <span className={cx(styles.bar, className)} style={{ width, height }} />;
}

/** What every skeleton says to a screen reader: the page is loading, not empty. */
function Busy({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className} data-testid="page-skeleton">
      {children}
    </div>
  );
}

/** Row widths that vary like real text does, the same on every render. */
const WIDTHS = ['72%', '54%', '86%', '63%', '45%', '78%'];

export interface SkeletonColumn {
  label: string;
  align?: 'right';
}

/** A list's rows in grey under its real column headings (a table), or its cards on a phone. */
export function ListSkeleton({ label, columns, rows = 6 }: { label: string; columns: readonly SkeletonColumn[]; rows?: number }) {
  const phone = useIsPhone();
  if (phone) {
    return (
      <Busy label={label} className={styles.cards}>
        {Array.from({ length: Math.min(rows, 4) }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <div key={i} className={cx(styles.card, css({ display: 'flex', flexDirection: 'column', gap: '2.5' }))}>
            <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '4' })}>
              <Bar width={WIDTHS[i % WIDTHS.length]} />
              <Bar width="20%" />
            </div>
            <Bar width="40%" />
          </div>
        ))}
      </Busy>
    );
  }
  return (
    <Busy label={label} className={css({ overflowX: 'auto' })}>
      <table className={listStyles.table} aria-hidden="true">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} className={column.align === 'right' ? styles.right : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
            <tr key={row}>
              {columns.map((column, col) => (
                <td key={column.label} className={column.align === 'right' ? styles.right : undefined}>
                  <Bar width={column.align === 'right' ? '60%' : WIDTHS[(row + col) % WIDTHS.length]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Busy>
  );
}

/** A list page: its toolbar (count and buttons) over the rows. */
export function ListPageSkeleton({ label, columns }: { label: string; columns: readonly SkeletonColumn[] }) {
  return (
    <section className={styles.card}>
      <div className={styles.toolbar}>
        <Bar width="8rem" height="0.9rem" />
        <Bar width="14rem" height="2.25rem" />
      </div>
      <ListSkeleton label={label} columns={columns} />
    </section>
  );
}

/** Vue d'ensemble: the greeting (unless the page already draws it), the figures' cards and the chart. */
export function DashboardSkeleton({ greeting = true }: { greeting?: boolean }) {
  return (
    <Busy label="Chargement du tableau de bord" className={styles.stack}>
      {greeting && (
        <section className={styles.card}>
          <Bar width="12rem" height="1.25rem" />
          <Bar width="20rem" className={css({ mt: '3' })} />
        </section>
      )}
      <div className={styles.kpis}>
        {['CA HT ce mois-ci', 'CA HT de l’année', 'Encours clients', 'En retard', 'Encaissé ce mois-ci', 'Dépenses ce mois-ci'].map(
          (label) => (
            <section key={label} className={styles.card} data-testid="skeleton-card">
              <p className={css({ fontSize: 'sm', color: 'fg.muted', fontWeight: '600' })}>{label}</p>
              <Bar width="55%" height="1.6rem" className={css({ mt: '2' })} />
              <Bar width="40%" className={css({ mt: '3' })} />
            </section>
          ),
        )}
      </div>
      <section className={styles.card}>
        <Bar width="16rem" height="1rem" />
        <div className={styles.chart} aria-hidden="true">
          {[30, 55, 40, 70, 50, 85, 60, 45, 75, 35, 65, 50].map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
            <span key={i} className={styles.column} style={{ height: `${h}%` }} />
          ))}
        </div>
      </section>
    </Busy>
  );
}

/** A settings form: its fields' labels and boxes. */
export function FormSkeleton({ fields = 6 }: { fields?: number }) {
  return (
    <Busy label="Chargement des paramètres" className={styles.card}>
      <Bar width="10rem" height="1rem" />
      <div className={styles.fields}>
        {Array.from({ length: fields }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <div key={i} className={styles.field}>
            <Bar width={WIDTHS[i % WIDTHS.length]} />
            <div className={styles.input} />
          </div>
        ))}
      </div>
    </Busy>
  );
}

/** The agenda: its toolbar and a week of days. */
export function AgendaSkeleton() {
  return (
    <Busy label="Chargement de l’agenda" className={styles.card}>
      <div className={styles.toolbar}>
        <Bar width="16rem" height="1.1rem" />
        <Bar width="12rem" height="2.25rem" />
      </div>
      <div className={styles.grid} aria-hidden="true">
        {Array.from({ length: 14 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <div key={i} className={styles.cell} />
        ))}
      </div>
    </Busy>
  );
}

/** Statistiques: the period, the figures' cards and the chart. */
export function ReportsSkeleton() {
  return (
    <Busy label="Chargement des statistiques" className={styles.stack}>
      <section className={styles.card}>
        <Bar width="18rem" height="2.25rem" />
      </section>
      <div className={styles.kpis}>
        {['Chiffre d’affaires HT', 'Encours clients', 'Marge'].map((label) => (
          <section key={label} className={styles.card}>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', fontWeight: '600' })}>{label}</p>
            <Bar width="55%" height="1.6rem" className={css({ mt: '2' })} />
          </section>
        ))}
      </div>
      <section className={styles.card}>
        <div className={styles.chart} aria-hidden="true">
          {[40, 60, 35, 80, 55, 70, 45, 65, 50, 75, 30, 60].map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
            <span key={i} className={styles.column} style={{ height: `${h}%` }} />
          ))}
        </div>
      </section>
    </Busy>
  );
}

/** What a route draws while its page and its data come (routes.tsx: `skeleton`). */
export type PageSkeletonKind =
  | { kind: 'dashboard' }
  | { kind: 'list'; label: string; columns: readonly SkeletonColumn[] }
  | { kind: 'form' }
  | { kind: 'agenda' }
  | { kind: 'reports' };

export function PageSkeleton({ skeleton }: { skeleton?: PageSkeletonKind }) {
  switch (skeleton?.kind) {
    case 'dashboard':
      return <DashboardSkeleton />;
    case 'list':
      return <ListPageSkeleton label={skeleton.label} columns={skeleton.columns} />;
    case 'agenda':
      return <AgendaSkeleton />;
    case 'reports':
      return <ReportsSkeleton />;
    default:
      return <FormSkeleton />;
  }
}
