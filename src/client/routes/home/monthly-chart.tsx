import { css, cx } from '../../../../styled-system/css';
import { formatCompactMoney } from '../../../shared/format';

const monthName = new Intl.DateTimeFormat('fr-FR', { month: 'short', timeZone: 'UTC' });
const monthLong = new Intl.DateTimeFormat('fr-FR', { month: 'long', timeZone: 'UTC' });
const MONTHS = Array.from({ length: 12 }, (_, m) => ({
  short: monthName.format(new Date(Date.UTC(2000, m, 1))),
  long: monthLong.format(new Date(Date.UTC(2000, m, 1))),
}));

const styles = {
  chart: css({
    display: 'grid',
    gridTemplateColumns: 'repeat(12, minmax(0, 1fr))',
    gap: { base: '1', md: '2' },
    alignItems: 'end',
    h: '48',
    pt: '5',
  }),
  column: css({
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'flex-end',
    h: 'full',
    gap: '1',
    minW: '0',
  }),
  value: css({ fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', hideBelow: 'lg' }),
  bar: css({
    w: 'full',
    maxW: '12',
    flexShrink: '0',
    borderTopRadius: 'md',
    bg: 'accent.subtle',
    borderWidth: '1px',
    borderBottomWidth: '0',
    borderColor: 'accent.default',
    transition: 'height 0.3s',
  }),
  current: css({ bg: 'accent.default' }),
  empty: css({ borderColor: 'border.default', bg: 'bg.subtle' }),
  labels: css({
    display: 'grid',
    gridTemplateColumns: 'repeat(12, minmax(0, 1fr))',
    gap: { base: '1', md: '2' },
    borderTopWidth: '1px',
    borderColor: 'border.default',
    pt: '1.5',
  }),
  label: css({ fontSize: 'xs', color: 'fg.muted', textAlign: 'center', overflow: 'hidden', textOverflow: 'clip', whiteSpace: 'nowrap' }),
  currentLabel: css({ color: 'fg.default', fontWeight: '700' }),
};

/**
 * Twelve months of turnover as plain bars (no chart library). A month that credit notes took below zero is drawn
 * flat; its value stays in the label read by screen readers and in the tooltip.
 */
export function MonthlyChart({
  values,
  currentMonth,
  format,
  year,
  currency,
}: {
  values: number[];
  currentMonth: number;
  format: (amount: number) => string;
  year: number;
  currency: string;
}) {
  const max = Math.max(...values, 0);
  // Above the bars, '1,3 k€' fits a twelfth of the card; the exact amount is in the tooltip and the aria-label.
  return (
    <figure>
      <ol className={styles.chart} aria-label={`Chiffre d’affaires HT par mois, ${year}`}>
        {values.map((value, m) => {
          const height = max > 0 && value > 0 ? Math.max(2, (value / max) * 100) : 0;
          const month = MONTHS[m] ?? { long: String(m + 1) };
          const text = `${month.long} ${year} : ${format(value)}`;
          return (
            <li key={month.long} aria-label={text} title={text} className={styles.column}>
              {value !== 0 && <span className={styles.value}>{formatCompactMoney(value, currency)}</span>}
              <div
                className={cx(styles.bar, m === currentMonth && styles.current, height === 0 && styles.empty)}
                style={{ height: height ? `${height}%` : '2px' }}
              />
            </li>
          );
        })}
      </ol>
      <div className={styles.labels} aria-hidden="true">
        {MONTHS.map((month, m) => (
          <span key={month.long} className={cx(styles.label, m === currentMonth && styles.currentLabel)}>
            {month.short}
          </span>
        ))}
      </div>
    </figure>
  );
}
