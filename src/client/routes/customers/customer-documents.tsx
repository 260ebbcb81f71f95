import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useQueryState } from '../../lib/use-query-state';
import { useMoney } from '../../lib/use-money';
import { buttonRecipe } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { ListPending, listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { FileIcon } from '../../components/icons';
import { openHref } from '../documents/document-row-actions';
import { documentColumns } from '../documents/document-columns';
import { plural } from '../../../shared/french';

const styles = {
  ...listStyles,
  heading: css({ fontSize: 'md', fontWeight: '700' }),
};

/**
 * The customer's documents of every type, newest first. The page lives in the URL like the lists' filters, so
 * coming back from a document returns to the same page.
 */
export function CustomerDocuments({ customerId, archived }: { customerId: number; archived: boolean }) {
  const [query, setQuery] = useQueryState();
  const [, navigate] = useLocation();
  const money = useMoney();
  const page = Number(query.page ?? 1) || 1;
  const perPage = Number(query.per_page ?? 10) || 10;
  const list = trpc.documents.list.useQuery(
    { customer: customerId, per_page: perPage, page, sort_by: 'date', sort_order: 'desc' },
    { placeholderData: (previous) => previous },
  );
  // A page past the end (documents deleted meanwhile, an old link): step back to the last page that exists.
  const lastPage = list.data ? Math.max(1, Math.ceil(list.data.total / perPage)) : page;
  useEffect(() => {
    if (page > lastPage) setQuery({ page: lastPage > 1 ? lastPage : undefined });
  }, [page, lastPage, setQuery]);
  // An archived customer cannot be picked in the editor: no invitation to invoice them until restored.
  const canCreate = useCan('documents.create');
  const newInvoice =
    archived || !canCreate ? null : (
      <Link href={`/invoices/new/add?customer=${customerId}`} className={buttonRecipe()}>
        Nouvelle facture
      </Link>
    );

  return (
    <section className={styles.panel} aria-labelledby="customer-documents-title">
      <div className={styles.toolbar}>
        <div>
          <h3 id="customer-documents-title" className={styles.heading}>
            Documents
          </h3>
          {list.data && list.data.total > 0 && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{plural(list.data.total, 'document')}</p>
          )}
        </div>
        {list.data && list.data.total > 0 && newInvoice}
      </div>
      {!list.data ? (
        <ListPending query={list} label="Chargement des documents" failed="Les documents n’ont pas pu être chargés." />
      ) : list.data.total === 0 ? (
        <div className={styles.empty}>
          <FileIcon size={32} />
          <p className={css({ fontWeight: '600', color: 'fg.default' })}>Aucun document pour ce client</p>
          <p className={css({ fontSize: 'sm', maxW: 'md' })}>
            {archived
              ? 'Restaurez ce client pour pouvoir le facturer.'
              : 'Créez sa première facture : elle apparaîtra ici avec son statut, et les montants ci-dessus se mettront à jour.'}
          </p>
          {newInvoice}
        </div>
      ) : (
        <>
          {/* A table on wide screens, cards on a phone: number, total and status stay in sight. */}
          <ResponsiveList
            label="Documents du client"
            testId="customer-documents-list"
            rows={list.data.data}
            rowKey={(doc) => doc.id}
            dimmed={list.isPlaceholderData}
            onOpen={(doc) => navigate(openHref(doc))}
            columns={documentColumns({ money, type: true, customer: false })}
          />
          <Pagination page={page} perPage={perPage} total={list.data.total} onChange={(patch) => setQuery(patch)} />
        </>
      )}
    </section>
  );
}
