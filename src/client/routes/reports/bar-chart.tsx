import { useState } from 'react';
import { css } from '../../../../styled-system/css';

/**
 * Bars in plain SVG, no chart library: the reports draw grouped bars only, which takes fewer lines than any
 * library's setup and nothing to download (uPlot is ~50 kB, Chart.js ~70 kB tree-shaken). Colours are the theme's
 * tokens, so dark mode follows; the exact figures are in each bar's tooltip and in the card's table, which screen
 * readers get instead of the picture (aria-hidden).
 */
export type Tone = 'accent' | 'muted' | 'warning' | 'danger';

export interface Series {
  name: string;
  values: number[];
  tone: Tone;
  /** A tone per value, where bars of one series mean different things (not yet due is no alarm, overdue is). */
  tones?: Tone[];
}

const TONES = {
  accent: css({ fill: 'accent.default' }),
  muted: css({ fill: 'border.strong' }),
  warning: css({ fill: 'warning' }),
  danger: css({ fill: 'danger' }),
};

const styles = {
  wrap: css({ position: 'relative' }),
  svg: css({ w: 'full', h: 'auto', display: 'block', overflow: 'visible' }),
  grid: css({ stroke: 'border.default', strokeWidth: '1' }),
  axis: css({ fill: 'fg.muted', fontSize: '11px', fontVariantNumeric: 'tabular-nums' }),
  group: css({ fill: 'fg.default', fontSize: '11px', fontWeight: '600', fontVariantNumeric: 'tabular-nums' }),
  legend: css({ display: 'flex', gap: '4', fontSize: 'xs', color: 'fg.muted', mt: '2', flexWrap: 'wrap' }),
  swatch: css({ display: 'inline-block', w: '3', h: '3', borderRadius: 'sm', mr: '1.5', verticalAlign: 'middle' }),
  tip: css({
    position: 'absolute',
    pointerEvents: 'none',
    bg: 'bg.surface',
    color: 'fg.default',
    borderWidth: '1px',
    borderColor: 'border.strong',
    borderRadius: 'md',
    boxShadow: 'card',
    px: '2',
    py: '1',
    fontSize: 'xs',
    whiteSpace: 'nowrap',
    transform: 'translate(-50%, -110%)',
  }),
};

const SWATCH = {
  accent: css({ bg: 'accent.default' }),
  muted: css({ bg: 'border.strong' }),
  warning: css({ bg: 'warning' }),
  danger: css({ bg: 'danger' }),
};

const BASE_H = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

/**
 * Round steps for the value axis: 1, 2 or 5 × 10^n, about four lines, the first at or below the smallest value and
 * the last at or above the largest, so that every bar stays within the axis (2 267 € reaches up to a 3 k line).
 */
export function ticks(min: number, max: number): number[] {
  const span = max - min || 1;
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  const first = Math.floor(min / step);
  // Counted in whole steps, not summed: added decimals drift (0.1 + 0.2) and could stop one line short.
  for (let k = first; ; k += 1) {
    const v = Math.round(k * step * 100) / 100;
    out.push(v);
    if (v >= max) break;
  }
  return out;
}

export function BarChart({
  labels,
  series,
  format,
  compact,
  narrow,
  axis,
}: {
  /** The full name of each period or bucket: the tooltips say it. */
  labels: string[];
  /** Shorter names under the axis (« avr. ») and a second line where it changes (the year, written once). */
  axis?: { ticks: string[]; groups: (string | null)[] };
  series: Series[];
  /** An exact amount, for the tooltip: '1 234,50 €'. */
  format: (value: number) => string;
  /** A short one, for the axis: '1,2 k€'. */
  compact: (value: number) => string;
  /** In a half-width card: a narrower drawing, so that its text keeps the page's size. */
  narrow?: boolean;
}) {
  const W = narrow ? 420 : 720;
  const groupLine = axis?.groups.some((g) => g !== null) ? 14 : 0;
  const H = BASE_H + groupLine;
  const bottom = PAD.bottom + groupLine;
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  const all = series.flatMap((s) => s.values);
  const grid = ticks(Math.min(0, ...all), Math.max(0, ...all));
  const lo = grid[0] ?? 0;
  const hi = grid.at(-1) ?? 1;
  const y = (v: number) => PAD.top + ((hi - v) / (hi - lo || 1)) * (H - PAD.top - bottom);
  const band = (W - PAD.left - PAD.right) / Math.max(1, labels.length);
  const barW = Math.min(36, (band * 0.8) / series.length);
  const every = Math.ceil(labels.length / 12); // at most 12 labels under the axis
  return (
    <figure className={styles.wrap} onMouseLeave={() => setTip(null)}>
      <svg viewBox={`0 0 ${W} ${H}`} className={styles.svg} aria-hidden="true" role="presentation">
        {grid.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className={styles.grid} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className={styles.axis}>
              {compact(t)}
            </text>
          </g>
        ))}
        {labels.map((label, i) => {
          const x0 = PAD.left + i * band + (band - barW * series.length) / 2;
          return (
            <g key={label}>
              {series.map((s, k) => {
                const v = s.values[i] ?? 0;
                const top = y(Math.max(0, v));
                const height = Math.max(v === 0 ? 0 : 1, Math.abs(y(v) - y(0)));
                const text = `${label} · ${s.name} : ${format(v)}`;
                return (
                  // biome-ignore lint/a11y/noStaticElementInteractions: a pointer-only hint; keyboards and screen readers get the same figures in the card's table
                  <rect
                    key={s.name}
                    x={x0 + k * barW}
                    y={top}
                    width={barW - 2}
                    height={height}
                    rx={2}
                    className={TONES[s.tones?.[i] ?? s.tone]}
                    onMouseEnter={() => setTip({ x: ((x0 + (k + 0.5) * barW) / W) * 100, y: (top / H) * 100, text })}
                  >
                    <title>{text}</title>
                  </rect>
                );
              })}
              {i % every === 0 && (
                <text x={PAD.left + (i + 0.5) * band} y={H - 8 - groupLine} textAnchor="middle" className={styles.axis}>
                  {axis?.ticks[i] ?? label}
                </text>
              )}
              {axis?.groups[i] && (
                <text x={PAD.left + i * band + 2} y={H - 6} textAnchor="start" className={styles.group}>
                  {axis.groups[i]}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {tip && (
        <div className={styles.tip} style={{ left: `${tip.x}%`, top: `${tip.y}%` }} role="tooltip">
          {tip.text}
        </div>
      )}
      {series.length > 1 && (
        <figcaption className={styles.legend}>
          {series.map((s) => (
            <span key={s.name}>
              <span className={`${styles.swatch} ${SWATCH[s.tone]}`} />
              {s.name}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
