import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { buttonRecipe } from '../../components/ui/button';
import { formatDateShort } from '../../../shared/format';
import { csvNumber, ReportCard } from './report-card';
import { plural } from '../../../shared/french';

const styles = {
  pager: css({ display: 'flex', gap: '2', alignItems: 'center', mt: '3', fontSize: 'sm', color: 'fg.muted', flexWrap: 'wrap' }),
};

/**
 * The livre des recettes (franchise en base), a thousand receipts a page: a micro-entrepreneur's year fits in one;
 * the count and the total are the whole period's. `key` it by the period, so that a new period starts on page 1.
 */
export function ReceiptsCard({ range, format }: { range: { from: string; to: string }; format: (n: number) => string }) {
  const [page, setPage] = useState(1);
  const receipts = trpc.reports.receipts.useQuery({ ...range, page }, { placeholderData: (previous) => previous });
  const book = receipts.data;
  return (
    <ReportCard
      title="Livre des recettes"
      file={book && book.pages > 1 ? `livre-des-recettes-page-${book.page}` : 'livre-des-recettes'}
      empty="Aucun encaissement sur cette période."
      table={{
        header: ['Date', 'Client', 'Document', 'Mode de paiement', 'Montant'],
        numeric: [false, false, false, false, true],
        rows: (book?.data ?? []).map((r) => ({
          cells: [formatDateShort(r.date), r.customer, r.document, r.method, format(r.amount)],
          csv: [formatDateShort(r.date), r.customer, r.document, r.method, csvNumber(r.amount)],
        })),
      }}
    >
      {book && (
        <div className={styles.pager}>
          <span>
            {plural(book.count, 'encaissement')} sur la période, {format(book.total)} au total
            {book.pages > 1 ? ` · page ${book.page} sur ${book.pages}` : ''}.
          </span>
          {book.pages > 1 && (
            <>
              <button
                type="button"
                className={buttonRecipe({ variant: 'outline', size: 'sm' })}
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              >
                Précédente
              </button>
              <button
                type="button"
                className={buttonRecipe({ variant: 'outline', size: 'sm' })}
                disabled={page >= book.pages}
                onClick={() => setPage(page + 1)}
              >
                Suivante
              </button>
            </>
          )}
        </div>
      )}
    </ReportCard>
  );
}
