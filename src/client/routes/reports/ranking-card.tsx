import type { ReactNode } from 'react';
import { css } from '../../../../styled-system/css';
import { csvNumber, ReportCard } from './report-card';

/**
 * A top ten and the rest (by customer, item or tag): horizontal bars in SVG, a name being too long to sit under a
 * vertical one; in SVG so that the PNG export draws it. The table keeps the exact figures for screen readers.
 */
export interface Ranking {
  data: { name: string; count: number; net: number }[];
  rest: { count: number; net: number };
}

const styles = {
  svg: css({ w: 'full', h: 'auto', display: 'block' }),
  name: css({ fill: 'fg.default', fontSize: '12px' }),
  value: css({ fill: 'fg.muted', fontSize: '11px', fontVariantNumeric: 'tabular-nums' }),
  bar: css({ fill: 'accent.default' }),
  negative: css({ fill: 'danger' }),
  rest: css({ fill: 'border.strong' }),
};

const W = 480;
const ROW = 26;
const NAME = 150;
const VALUE = 96;
const MAX_NAME = 22;

const shortName = (name: string) => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name);

function RankingChart({ rows, format }: { rows: { name: string; net: number; rest?: boolean }[]; format: (n: number) => string }) {
  const max = Math.max(...rows.map((r) => Math.abs(r.net)), 1);
  const span = W - NAME - VALUE;
  return (
    <svg viewBox={`0 0 ${W} ${rows.length * ROW}`} className={styles.svg} aria-hidden="true" role="presentation">
      {rows.map((r, i) => {
        const width = Math.max(r.net === 0 ? 0 : 2, (Math.abs(r.net) / max) * span);
        const text = `${r.name} : ${format(r.net)}`;
        return (
          <g key={r.name}>
            <title>{text}</title>
            <text x={0} y={i * ROW + 17} className={styles.name}>
              {shortName(r.name)}
            </text>
            <rect
              x={NAME}
              y={i * ROW + 5}
              width={width}
              height={ROW - 10}
              rx={2}
              className={r.rest ? styles.rest : r.net < 0 ? styles.negative : styles.bar}
            />
            <text x={NAME + width + 6} y={i * ROW + 17} className={styles.value}>
              {format(r.net)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export function RankingCard({
  title,
  file,
  empty,
  column,
  restLabel,
  ranking,
  format,
  children,
}: {
  title: string;
  file: string;
  empty: string;
  /** The first column's header: « Client », « Article », « Étiquette ». */
  column: string;
  /** The row of the others: « Autres clients »… */
  restLabel: string;
  ranking: Ranking | undefined;
  format: (n: number) => string;
  children?: ReactNode;
}) {
  const rows = [
    ...(ranking?.data ?? []).map((r) => ({ name: r.name, count: r.count, net: r.net, rest: false })),
    ...(ranking && ranking.rest.count > 0 ? [{ name: restLabel, count: ranking.rest.count, net: ranking.rest.net, rest: true }] : []),
  ];
  return (
    <ReportCard
      title={title}
      file={file}
      empty={empty}
      chart={rows.length > 0 && <RankingChart rows={rows} format={format} />}
      table={{
        header: [column, 'Documents', 'HT'],
        numeric: [false, true, true],
        rows: rows.map((r) => ({ cells: [r.name, String(r.count), format(r.net)], csv: [r.name, String(r.count), csvNumber(r.net)] })),
      }}
    >
      {children}
    </ReportCard>
  );
}
