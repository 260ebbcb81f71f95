import { css, cx } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { div, min, mul, round, toNumber } from '../../../shared/money';

const styles = {
  strip: css({ display: 'flex', flexDirection: 'column', gap: '3' }),
  currency: css({ fontSize: 'xs', fontWeight: '700', color: 'fg.muted', mb: '1.5' }),
  row: css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, gap: '3' }),
  // On a phone each tile is one line (label left, amount right), so the strip does not push the documents away.
  tile: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    px: '4',
    py: '3',
    minW: '0',
    display: { base: 'grid', sm: 'block' },
    gridTemplateColumns: '1fr auto',
    alignItems: 'center',
    columnGap: '3',
  }),
  label: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' }),
  value: css({
    fontSize: { base: 'lg', sm: 'xl' },
    fontWeight: '700',
    fontVariantNumeric: 'tabular-nums',
    mt: '0.5',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    gridRow: 'span 2',
  }),
  detail: css({ fontSize: 'xs', color: 'fg.muted', mt: '0.5' }),
  owing: css({ borderColor: 'warning', bg: 'warningSubtle' }),
  muted: css({ fontSize: 'sm', color: 'fg.muted' }),
};

interface Balance {
  currency: string;
  billed: number;
  paid: number;
  refunded: number;
  credit: number;
  outstanding: number;
  documents: number;
}

/**
 * Facturé, Encaissé, Reste dû for one customer, one row per currency billed (amounts in two currencies are never
 * added). A customer not yet invoiced shows zeros in their own currency rather than an empty space.
 */
/** What was paid as a whole percentage of what was billed, capped at 100 (decimal, no float division). */
const paidShare = (paid: number, billed: number): number => toNumber(min(100, round(div(mul(paid, 100), billed), 0)));

export function CustomerFigures({ customerId, currency }: { customerId: number; currency: string }) {
  const figures = trpc.figures.customer.useQuery({ id: customerId }, { staleTime: 0 });
  const money = useMoney();
  if (figures.isError) return <p className={styles.muted}>Les montants de ce client n’ont pas pu être chargés.</p>;
  const rows: Balance[] = figures.data
    ? figures.data.total > 0
      ? figures.data.data
      : [{ currency, billed: 0, paid: 0, refunded: 0, credit: 0, outstanding: 0, documents: 0 }]
    : [];
  const several = rows.length > 1;
  return (
    <section className={styles.strip} aria-label="Montants du client" aria-busy={figures.isPending}>
      {figures.isPending && (
        <div className={styles.row}>
          {['Facturé', 'Encaissé', 'Reste dû'].map((label) => (
            <div key={label} className={styles.tile}>
              <p className={styles.label}>{label}</p>
              <p className={cx(styles.value, css({ color: 'fg.muted' }))}>…</p>
            </div>
          ))}
        </div>
      )}
      {rows.map((r) => (
        <div key={r.currency} data-testid={`figures-${r.currency}`}>
          {several && <p className={styles.currency}>En {r.currency}</p>}
          <div className={styles.row}>
            <div className={styles.tile}>
              <p className={styles.label}>Facturé</p>
              <p className={styles.value}>{money(r.billed, r.currency)}</p>
              <p className={styles.detail}>{r.documents === 0 ? 'Aucune facture émise' : 'TTC, factures émises moins avoirs'}</p>
            </div>
            <div className={styles.tile}>
              <p className={styles.label}>Encaissé</p>
              <p className={styles.value}>{money(r.paid, r.currency)}</p>
              <p className={styles.detail}>
                {r.refunded > 0
                  ? `Remboursé\u00a0: ${money(r.refunded, r.currency)}`
                  : r.billed > 0
                    ? `${paidShare(r.paid, r.billed)} % du facturé`
                    : 'Paiements reçus'}
              </p>
            </div>
            {r.credit > 0 && (
              <div className={styles.tile} data-testid={`credit-${r.currency}`}>
                <p className={styles.label}>Avoir disponible</p>
                <p className={styles.value}>{money(r.credit, r.currency)}</p>
                <p className={styles.detail}>À imputer ou à rembourser</p>
              </div>
            )}
            <div className={cx(styles.tile, r.outstanding > 0 && styles.owing)}>
              <p className={styles.label}>Reste dû</p>
              <p className={styles.value}>{money(r.outstanding, r.currency)}</p>
              <p className={styles.detail}>{r.outstanding > 0 ? 'Sur les factures impayées' : 'Rien à encaisser'}</p>
            </div>
          </div>
        </div>
      ))}
    </section>
  );
}
