import { css } from '../../../../styled-system/css';
import { cardStyle } from './report-card';

const styles = {
  label: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' }),
  value: css({ fontSize: '2xl', fontWeight: '700', fontVariantNumeric: 'tabular-nums', mt: '1', whiteSpace: 'nowrap' }),
  detail: css({ fontSize: 'sm', color: 'fg.muted', mt: '0.5' }),
  up: css({ color: 'success' }),
  down: css({ color: 'danger' }),
};

/** One key figure above the charts of /reports, green or red when it is a change. */
export function Kpi({ label, value, detail, tone }: { label: string; value: string; detail: string; tone?: 'up' | 'down' }) {
  return (
    <section className={cardStyle}>
      <p className={styles.label}>{label}</p>
      <p className={`${styles.value} ${tone ? styles[tone] : ''}`}>{value}</p>
      <p className={styles.detail}>{detail}</p>
    </section>
  );
}
