import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { capitalize, formatDateShort } from '../../../shared/format';
import type { ReminderRow } from '../../../shared/schemas/reminders';
import { REMINDER_STATUSES, offsetLabel } from '../../../shared/reminders';
import { reportError, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { PER_PAGE_OPTIONS, Pagination, pageCount } from '../../components/ui/pagination';
import { ListPending, listStyles } from '../../components/ui/list';
import { plural, pluralWord } from '../../../shared/french';
import { parisDateOf } from '../../../shared/paris-date';

const styles = {
  ...listStyles,
  amount: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  muted: css({ color: 'fg.muted', fontSize: 'xs' }),
  late: css({ color: 'danger', fontWeight: '600' }),
  failed: css({ color: 'danger', fontSize: 'xs' }),
  heading: css({ fontWeight: '600', fontSize: 'md', mt: '2' }),
};

const count = (n: number, one: string, many: string) => (n === 0 ? `aucune ${one}` : `${n} ${n > 1 ? many : one}`);

function daysText(days: number): string {
  if (days === 0) return 'Échéance aujourd’hui';
  const n = Math.abs(days);
  return days > 0 ? `${plural(n, 'jour')} de retard` : `Échéance dans ${plural(n, 'jour')}`;
}

function LastReminder({ row }: { row: ReminderRow }) {
  const last = row.last_reminder;
  if (!last) return <span className={styles.muted}>Aucune</span>;
  return (
    <span>
      {offsetLabel(last.step)}
      <br />
      <span className={last.status === 'failed' ? styles.failed : styles.muted} title={last.error || undefined}>
        {REMINDER_STATUSES[last.status]}
        {last.sent_at ? ` le ${formatDateShort(parisDateOf(last.sent_at))}` : ''}
        {last.status === 'failed' && last.error ? ` : ${last.error}` : ''}
      </span>
    </span>
  );
}

/**
 * Documents → Factures → Relances: what is late, and the reminders due today — sent by the scheduler
 * when automatic, or here in one click when proposed.
 */
export function RemindersPanel() {
  const utils = trpc.useUtils();
  const money = useMoney();
  const [listPage, setListPage] = useState({ page: 1, per_page: PER_PAGE_OPTIONS[1] ?? 25 });
  const list = trpc.reminders.list.useQuery(listPage, { placeholderData: (previous) => previous });
  const [busy, setBusy] = useState<number[]>([]);
  const [bulkRunning, setBulkRunning] = useState(false);
  const send = trpc.reminders.send.useMutation({ meta: { silent: true } });
  const canSend = useCan('reminders.send');
  const canConfigure = useCan('reminders.saveSettings');

  async function sendMany(ids: number[], bulk: boolean) {
    setBusy(ids);
    setBulkRunning(bulk);
    let sent = 0;
    for (const id of ids) {
      try {
        const answer = await send.mutateAsync({ documentId: id });
        sent += 1;
        if (!bulk) showMessage(answer.messages, 201);
      } catch (error) {
        reportError(error); // says why (no address, SMTP refusal…); the next ones are still tried
      }
    }
    if (bulk) showMessage(`${plural(sent, 'relance')} ${pluralWord(sent, 'envoyée')} sur ${ids.length}`, 201);
    setBusy([]);
    await Promise.all([utils.reminders.list.invalidate(), utils.documents.list.invalidate()]);
  }

  // An invoice paid meanwhile shortens the list: past its end, show its last page.
  const lastPage = pageCount(list.data?.total ?? 0, listPage.per_page);
  useEffect(() => {
    if (list.data && listPage.page > lastPage) setListPage((w) => ({ ...w, page: lastPage }));
  }, [list.data, listPage.page, lastPage]);

  if (!list.data) return <ListPending query={list} label="Chargement des relances" failed="Les relances n’ont pas pu être chargées." />;
  const { data: rows, total, late, due_today: dueToday, proposed } = list.data;
  const lateCount = count(late, 'facture en retard', 'factures en retard');
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div className={styles.toolbar}>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
          {total === 0
            ? 'Aucune facture en retard ni relance à envoyer aujourd’hui.'
            : capitalize(`${lateCount}, ${count(dueToday, 'relance à envoyer', 'relances à envoyer')} aujourd’hui`)}
        </p>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {canConfigure && (
            <Link href="/settings/reminders" className={cx(css({ fontSize: 'sm', alignSelf: 'center' }), styles.link)}>
              Paramétrer les relances
            </Link>
          )}
          {proposed.length > 0 && canSend && (
            <Button onClick={() => void sendMany(proposed, true)} loading={busy.length > 0 && bulkRunning}>
              {proposed.length > 1 ? `Envoyer les ${proposed.length} relances proposées` : 'Envoyer la relance proposée'}
            </Button>
          )}
        </div>
      </div>
      {rows.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Facture</th>
                <th>Client</th>
                <th>Échéance</th>
                <th>Retard</th>
                <th style={{ textAlign: 'right' }}>Reste dû</th>
                <th>Dernière relance</th>
                <th>Aujourd’hui</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.document_id}>
                  <td className={styles.number}>
                    <Link href={`/invoices/${row.document_id}/view`} className={styles.link}>
                      {row.number}
                    </Link>
                  </td>
                  <td>
                    {row.customer_name}
                    <br />
                    <span className={styles.muted}>{row.customer_email || 'Pas d’adresse e-mail'}</span>
                  </td>
                  <td>{formatDateShort(row.maturity)}</td>
                  <td className={row.days_late > 0 ? styles.late : undefined}>{daysText(row.days_late)}</td>
                  <td className={styles.amount}>{money(row.amount_due, row.currency)}</td>
                  <td>
                    <LastReminder row={row} />
                  </td>
                  <td>
                    {row.due_step ? (
                      <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', alignItems: 'flex-start' })}>
                        <span className={styles.muted}>
                          {row.due_step.label} · {row.due_step.mode === 'automatic' ? 'envoi automatique' : 'proposée'}
                        </span>
                        {canSend && (
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={!row.customer_email || busy.length > 0}
                            loading={busy.includes(row.document_id) && !bulkRunning}
                            onClick={() => void sendMany([row.document_id], false)}
                          >
                            Envoyer la relance
                          </Button>
                        )}
                      </div>
                    ) : (
                      <span className={styles.muted}>
                        Rien à envoyer
                        {row.next_step && (
                          <>
                            <br />
                            Prochaine relance le {formatDateShort(row.next_step.date)} ({row.next_step.label})
                          </>
                        )}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <Pagination
          page={listPage.page}
          perPage={listPage.per_page}
          total={total}
          onChange={(patch) => setListPage((w) => ({ ...w, ...patch }))}
        />
      )}
    </div>
  );
}
