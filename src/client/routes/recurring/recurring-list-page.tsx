import { Link, useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { RECURRING_MODE_LABELS, type RecurringInvoiceRecord } from '../../../shared/schemas/recurring-invoice';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { showMessage } from '../../stores/snackbar';
import { confirm } from '../../stores/confirm';
import { Button } from '../../components/ui/button';
import { ActionMenu } from '../../components/ui/action-menu';
import { ListPending, listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { WalletIcon } from '../../components/icons';
import { plural } from '../../../shared/french';
import { parisDateOf } from '../../../shared/paris-date';
import { DocumentTypeTabs } from '../documents/document-type-tabs';

const styles = {
  ...listStyles,
  amount: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
  made: css({ display: 'flex', flexWrap: 'wrap', gap: '1.5', fontSize: 'sm' }),
  link: css({ color: 'accent.default', fontWeight: '600', _hover: { textDecoration: 'underline' } }),
  failed: css({ color: 'danger', fontSize: 'xs' }),
  status: css({
    display: 'inline-block',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    fontSize: 'xs',
    fontWeight: '700',
    bg: 'successSubtle',
    color: 'success',
    '&[data-paused]': { bg: 'bg.muted', color: 'fg.muted' },
    '&[data-ended]': { bg: 'bg.muted', color: 'fg.muted' },
  }),
};

const statusOf = (r: RecurringInvoiceRecord) => (r.paused ? 'En pause' : r.next_date ? 'Active' : 'Terminée');

/** Factures récurrentes: each model with its schedule, the invoices it made, and « Générer maintenant ». */
export function RecurringListPage() {
  const money = useMoney();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const list = trpc.recurringInvoices.list.useQuery();
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.recurringInvoices.invalidate();
    void utils.documents.invalidate();
  };
  const pause = trpc.recurringInvoices.pause.useMutation({ onSuccess: refresh });
  const remove = trpc.recurringInvoices.delete.useMutation({ onSuccess: refresh });
  const generate = trpc.recurringInvoices.generate.useMutation({ onSuccess: refresh });
  const can = {
    create: useCan('recurringInvoices.create'),
    generate: useCan('recurringInvoices.generate'),
    edit: useCan('recurringInvoices.update'),
    pause: useCan('recurringInvoices.pause'),
    remove: useCan('recurringInvoices.delete'),
  };

  async function removeModel(r: RecurringInvoiceRecord) {
    if (
      await confirm('Supprimer cette facture régulière ? Les factures déjà générées restent.', {
        title: 'Supprimer la facture régulière',
        confirmLabel: 'Supprimer',
      })
    )
      remove.mutate({ id: r.id });
  }

  return (
    <div>
      <DocumentTypeTabs current="recurring" />
      <section className={styles.panel} aria-label="Factures récurrentes">
        <div className={styles.toolbar}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Chaque facture est créée à sa date, une seule fois, puis laissée en brouillon, émise ou envoyée selon le mode choisi.
          </p>
          {can.create && <Button onClick={() => navigate('/recurring/new/add')}>Nouvelle facture régulière</Button>}
        </div>
        {!list.data ? (
          <ListPending query={list} label="Chargement" failed="La liste n’a pas pu être chargée." />
        ) : list.data.total === 0 ? (
          <div className={styles.empty}>
            <WalletIcon size={32} />
            <p className={css({ fontWeight: '600', color: 'fg.default' })}>Pas encore de factures récurrentes</p>
            <p className={css({ fontSize: 'sm' })}>
              Abonnements, maintenance, loyers : décrivez la facture une fois, elle est créée à chaque échéance.
            </p>
            {can.create && <Button onClick={() => navigate('/recurring/new/add')}>Créer une facture régulière</Button>}
          </div>
        ) : (
          <ResponsiveList
            label="Factures récurrentes"
            testId="recurring-list"
            rows={list.data.data}
            rowKey={(r) => r.id}
            actionsLabel="Actions"
            columns={[
              {
                key: 'customer',
                label: 'Client',
                card: 'title',
                cell: (r) => (
                  <Link href={`/recurring/${r.id}/edit`} className={styles.link}>
                    {r.customer_name}
                  </Link>
                ),
              },
              {
                key: 'label',
                label: 'Libellé',
                card: 'subtitle',
                cell: (r) => (
                  <>
                    {r.label}
                    <div className={styles.muted}>{RECURRING_MODE_LABELS[r.mode]}</div>
                  </>
                ),
              },
              {
                key: 'total',
                label: 'Montant TTC',
                align: 'right',
                card: 'amount',
                className: styles.amount,
                cell: (r) => money(r.total, r.currency),
              },
              { key: 'frequency', label: 'Fréquence', cell: (r) => r.frequency_label },
              {
                key: 'next',
                label: 'Prochaine date',
                className: styles.number,
                cell: (r) => (r.next_date && !r.paused ? formatDateShort(r.next_date) : '—'),
              },
              {
                key: 'last',
                label: 'Dernière génération',
                className: styles.number,
                cell: (r) => (r.last_generated_at ? formatDateShort(parisDateOf(r.last_generated_at)) : '—'),
              },
              { key: 'runs', label: 'Factures', cell: (r) => <MadeDocuments runs={r.runs} /> },
              {
                key: 'state',
                label: 'État',
                card: 'status',
                cell: (r) => (
                  <span className={styles.status} data-paused={r.paused || undefined} data-ended={!r.next_date || undefined}>
                    {statusOf(r)}
                  </span>
                ),
              },
            ]}
            actions={(r) => (
              <>
                {can.generate && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={!r.next_date || generate.isPending}
                    onClick={() => generate.mutate({ id: r.id })}
                  >
                    Générer maintenant
                  </Button>
                )}
                {can.edit && (
                  <ActionMenu
                    label={`Actions pour la facture régulière de ${r.customer_name}`}
                    entries={[
                      { value: 'edit', label: 'Modifier', onSelect: () => navigate(`/recurring/${r.id}/edit`) },
                      ...(can.pause
                        ? [
                            {
                              value: 'pause',
                              label: r.paused ? 'Reprendre' : 'Mettre en pause',
                              onSelect: () => pause.mutate({ id: r.id, paused: !r.paused }),
                            },
                          ]
                        : []),
                      ...(can.remove
                        ? [
                            { separator: true as const, value: 'sep' },
                            { value: 'delete', label: 'Supprimer', tone: 'danger' as const, onSelect: () => void removeModel(r) },
                          ]
                        : []),
                    ]}
                  />
                )}
              </>
            )}
          />
        )}
      </section>
    </div>
  );
}

/** The invoices a model made, newest first, each a link; a refusal to issue or send is said beside it. */
function MadeDocuments({ runs }: { runs: RecurringInvoiceRecord['runs'] }) {
  const made = runs.filter((run) => run.document_id !== null);
  if (made.length === 0) return <span className={styles.muted}>Aucune</span>;
  return (
    <div>
      <span className={styles.muted}>{plural(made.length, 'facture')}</span>
      <div className={styles.made}>
        {made.slice(0, 3).map((run) => (
          <Link key={run.occurrence_date} href={`/invoices/${run.document_id}/view`} className={styles.link}>
            {run.number ?? `Brouillon du ${formatDateShort(run.occurrence_date)}`}
          </Link>
        ))}
      </div>
      {runs[0]?.error && <div className={styles.failed}>{runs[0].error}</div>}
    </div>
  );
}
