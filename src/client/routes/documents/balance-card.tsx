import { css, cx } from '../../../../styled-system/css';
import { asideCard } from './aside-card';
import type { AppSettings } from '../../../shared/schemas/settings';
import { formattersOf } from '../../render/labels';

export interface Balance {
  currency: string;
  /** Payments received on the document. */
  paid: number;
  /** Issued credit notes on it. */
  credited: number;
  /** What is left to pay after deposits, credit notes and payments. */
  amount_due: number;
}

const styles = {
  card: cx(
    asideCard,
    css({
      display: 'flex',
      gap: '6',
      flexWrap: 'wrap',
    }),
  ),
  term: css({ color: 'fg.muted' }),
  value: css({ fontWeight: '600', fontVariantNumeric: 'tabular-nums' }),
};

/**
 * The invoice's balance, beside the document and never inside it: an issued document stays what was issued
 * (CGI art. 242 nonies A), what was paid or credited since is told here. Nothing is shown while nothing came in.
 */
export function BalanceCard({ balance, settings }: { balance: Balance; settings: AppSettings }) {
  if (balance.paid === 0 && balance.credited === 0) return null;
  const f = formattersOf(settings, balance.currency);
  const rows: [string, string][] = [];
  if (balance.paid !== 0) rows.push(['Payé', f.money(balance.paid)]);
  if (balance.credited !== 0) rows.push(['Avoirs', f.money(balance.credited)]);
  rows.push(['Reste à payer', f.money(balance.amount_due)]);
  return (
    <section aria-label="Solde" data-testid="balance-card" data-print-hidden className={styles.card}>
      {rows.map(([term, value]) => (
        <div key={term}>
          <span className={styles.term}>{term} : </span>
          <span className={styles.value}>{value}</span>
        </div>
      ))}
    </section>
  );
}
