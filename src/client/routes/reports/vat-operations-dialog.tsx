import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { formatRate } from '../../../shared/typography';
import type { VatOperationLine } from '../../../shared/schemas/vat-operations';
import { buttonRecipe } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { trpc } from '../../trpc';
import { vatItemsTable } from './vat-items-style';

const PER_PAGE = 50;

const styles = {
  state: css({ color: 'fg.muted', fontSize: 'sm', py: '6', textAlign: 'center' }),
  error: css({ color: 'fg.error', fontSize: 'sm', py: '4' }),
  pager: css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', mt: '3', fontSize: 'sm', color: 'fg.muted' }),
  region: css({ overflowX: 'auto', _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' } }),
};

const SOURCES = { invoice: 'Facture', credit: 'Avoir', expense: 'Dépense' } as const;

/**
 * The operations behind one line of a return too large to list them, fifty a page, read from the server page after page
 * (reports.vatOperations): « Précédentes » goes back through the cursors already followed. Key it by the line, so that
 * another line starts on its first page.
 */
export function VatOperationsDialog({
  line,
  range,
  format,
  onClose,
}: {
  line: { code: VatOperationLine; label: string } | null;
  range: { from: string; to: string };
  format: (n: number) => string;
  onClose: () => void;
}) {
  // The cursors of the pages read so far: the last is the page shown (undefined: the first).
  const [trail, setTrail] = useState<(string | undefined)[]>([undefined]);
  const after = trail[trail.length - 1];
  const table = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  const query = trpc.reports.vatOperations.useQuery(
    { ...range, line: line?.code ?? '08', per_page: PER_PAGE, ...(after ? { after } : {}) },
    { enabled: line !== null, placeholderData: (previous) => previous },
  );
  const page = query.data;
  const loading = query.isFetching && query.isPlaceholderData;
  // After « Suivantes » or « Précédentes », the reader lands on the page read, not on a button that may be disabled.
  useEffect(() => {
    if (moved.current && page && !query.isPlaceholderData) {
      moved.current = false;
      table.current?.focus();
    }
  }, [page, query.isPlaceholderData]);
  const go = (next: (string | undefined)[]) => {
    moved.current = true;
    setTrail(next);
  };
  const first = (trail.length - 1) * PER_PAGE + 1;
  return (
    <Dialog open={line !== null} onClose={onClose} title={line ? `Ligne ${line.code} — ${line.label}` : ''} width={880}>
      {line && !page && query.isPending && (
        <div className={styles.state}>
          <Spinner label={`Chargement des opérations de la ligne ${line.code}`} />
        </div>
      )}
      {query.isError && (
        <p className={styles.error} role="alert">
          {query.error.message || 'Les opérations n’ont pas pu être chargées.'}
        </p>
      )}
      {line && page && page.data.length === 0 && trail.length === 1 && (
        <p className={styles.state}>Aucune opération sur cette ligne pour cette période.</p>
      )}
      {line && page && page.data.length > 0 && (
        <>
          <div ref={table} tabIndex={-1} className={styles.region} aria-busy={loading} data-testid="vat-operations">
            <table className={vatItemsTable}>
              <caption className={css({ srOnly: true })}>
                Opérations {first} à {first + page.data.length - 1} de la ligne {line.code}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Pièce</th>
                  <th scope="col">Tiers</th>
                  <th scope="col" className="num">
                    Taux
                  </th>
                  <th scope="col" className="num">
                    Base HT
                  </th>
                  <th scope="col" className="num">
                    TVA
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((o) => (
                  <tr key={`${o.date} ${o.source} ${o.id} ${o.rate}`}>
                    <td>{formatDateShort(o.date)}</td>
                    <td>
                      <Link href={o.link}>{o.reference || SOURCES[o.source]}</Link>
                    </td>
                    <td>{o.party}</td>
                    <td className="num">{formatRate(o.rate)}</td>
                    <td className="num">{format(o.base)}</td>
                    <td className="num">{format(o.tax)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td colSpan={4}>Total de la ligne {line.code} sur la période</td>
                  <td className="num">{page.base === null ? '' : format(page.base)}</td>
                  <td className="num">{page.tax === null ? '' : format(page.tax)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
          <div className={styles.pager}>
            <span role="status">
              {loading
                ? 'Chargement…'
                : `Opérations ${first} à ${first + page.data.length - 1}${page.next === null ? ' (dernière page)' : ''}`}
            </span>
            <button
              type="button"
              className={buttonRecipe({ variant: 'outline', size: 'sm' })}
              disabled={trail.length === 1 || loading}
              onClick={() => go(trail.slice(0, -1))}
            >
              Précédentes
            </button>
            <button
              type="button"
              className={buttonRecipe({ variant: 'outline', size: 'sm' })}
              disabled={page.next === null || loading}
              onClick={() => page.next && go([...trail, page.next])}
            >
              Suivantes
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
