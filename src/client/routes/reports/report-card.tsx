import { type ReactNode, useId, useRef, useState } from 'react';
import { css } from '../../../../styled-system/css';
import { toCsv } from '../../../shared/csv';
import { buttonRecipe } from '../../components/ui/button';

export const cardStyle = css({
  bg: 'bg.surface',
  borderRadius: 'card',
  borderWidth: '1px',
  borderColor: 'border.default',
  boxShadow: 'card',
  p: { base: '4', md: '5' },
  minW: '0',
});

const styles = {
  head: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2', mb: '3', flexWrap: 'wrap' }),
  title: css({ fontSize: 'md', fontWeight: '700' }),
  actions: css({ display: 'flex', gap: '1.5', flexWrap: 'wrap' }),
  empty: css({ color: 'fg.muted', fontSize: 'sm', py: '6', textAlign: 'center' }),
  table: css({
    w: 'full',
    fontSize: 'sm',
    borderCollapse: 'collapse',
    '& th, & td': { py: '1.5', px: '2', borderBottomWidth: '1px', borderColor: 'border.default', textAlign: 'left' },
    '& th': { color: 'fg.muted', fontWeight: '600' },
    '& td.num, & th.num': { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  }),
  srOnly: css({ srOnly: true }),
  open: css({
    color: 'accent.default',
    fontWeight: '600',
    textDecoration: 'underline',
    cursor: 'pointer',
    bg: 'transparent',
    p: '0',
    whiteSpace: 'nowrap',
    _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  }),
};

/** A table as the card shows it, exports it to CSV and reads it out: French headers, rows of already formatted cells. */
export interface ReportTable {
  header: string[];
  /** Which columns are amounts or counts: right-aligned; exported as plain French numbers. */
  numeric?: boolean[];
  /**
   * `open`: what a click on the row's first cell shows (its details), named by `openLabel` for screen readers.
   * `action`: a button in a last column (not exported), `label` shown and `name` read out.
   */
  rows: {
    cells: string[];
    csv?: string[];
    open?: () => void;
    openLabel?: string;
    action?: { label: string; name: string; run: () => void };
  }[];
}

const frenchNumber = new Intl.NumberFormat('fr-FR', { useGrouping: false, maximumFractionDigits: 2 });
/** A number for the CSV: '1234,5', what French Excel reads as a number (no thousands separator, no currency). */
export const csvNumber = (n: number) => frenchNumber.format(n);

function download(href: string, filename: string) {
  const link = Object.assign(document.createElement('a'), { href, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * One report: its title, a chart (when it has one) and always its table — shown on « Tableau », otherwise kept for
 * screen readers only — with CSV (the customers export's writer: BOM, ';', CRLF) and PNG exports of what is shown.
 */
export function ReportCard({
  title,
  file,
  table,
  chart,
  empty,
  children,
}: {
  title: string;
  file: string;
  table: ReportTable;
  chart?: ReactNode;
  empty?: string;
  children?: ReactNode;
}) {
  const id = useId();
  const body = useRef<HTMLDivElement>(null);
  const [asTable, setAsTable] = useState(false);
  const isEmpty = table.rows.length === 0;
  const withActions = table.rows.some((r) => r.action);
  const exportCsv = () => {
    const content = toCsv(
      table.header,
      table.rows.map((r) => r.csv ?? r.cells),
    );
    const url = URL.createObjectURL(new Blob([content], { type: 'text/csv;charset=utf-8' }));
    download(url, `${file}.csv`);
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const exportPng = async () => {
    if (!body.current) return;
    const { default: html2canvas } = await import('html2canvas-pro'); // the screenshot's renderer, loaded on demand
    const canvas = await html2canvas(body.current, { logging: false, scale: 2 });
    download(canvas.toDataURL('image/png'), `${file}.png`);
  };
  return (
    <section className={cardStyle} aria-labelledby={id} data-testid={`report-${file}`}>
      <div className={styles.head}>
        <h2 id={id} className={styles.title}>
          {title}
        </h2>
        {!isEmpty && (
          <div className={styles.actions} data-screenshot-hidden>
            {chart && (
              <button
                type="button"
                className={buttonRecipe({ variant: 'outline', size: 'sm' })}
                aria-pressed={asTable}
                onClick={() => setAsTable(!asTable)}
              >
                {asTable ? 'Graphique' : 'Tableau'}
              </button>
            )}
            <button type="button" className={buttonRecipe({ variant: 'outline', size: 'sm' })} onClick={exportCsv}>
              CSV
            </button>
            <button type="button" className={buttonRecipe({ variant: 'outline', size: 'sm' })} onClick={exportPng}>
              PNG
            </button>
          </div>
        )}
      </div>
      <div ref={body} className={css({ bg: 'bg.surface' })}>
        {isEmpty ? (
          <p className={styles.empty}>{empty ?? 'Rien sur cette période.'}</p>
        ) : (
          <>
            {chart && !asTable && chart}
            {children}
            <div className={chart && !asTable ? styles.srOnly : css({ overflowX: 'auto' })}>
              <table className={styles.table}>
                <caption className={styles.srOnly}>{title}</caption>
                <thead>
                  <tr>
                    {table.header.map((h, i) => (
                      <th key={h} scope="col" className={table.numeric?.[i] ? 'num' : undefined}>
                        {h}
                      </th>
                    ))}
                    {withActions && (
                      <th scope="col">
                        <span className={styles.srOnly}>Détail</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((r, k) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows of a report have no identity beyond their order
                    <tr key={k}>
                      {r.cells.map((c, i) => (
                        <td key={table.header[i]} className={table.numeric?.[i] ? 'num' : undefined}>
                          {i === 0 && r.open ? (
                            <button type="button" className={styles.open} onClick={r.open} aria-label={r.openLabel}>
                              {c}
                            </button>
                          ) : (
                            c
                          )}
                        </td>
                      ))}
                      {withActions && (
                        <td>
                          {r.action && (
                            <button type="button" className={styles.open} onClick={r.action.run} aria-label={r.action.name}>
                              {r.action.label}
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
