import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { BANK_STATUSES, type BankStatus } from '../../../shared/schemas/bank';
import { printedIban } from '../../../shared/iban';
import { formatDateShort } from '../../../shared/format';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { useActionGuard } from '../../lib/use-action-guard';
import { readBase64 } from '../../lib/read-file';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { FileButton } from '../../components/ui/file-button';
import { listStyles } from '../../components/ui/list';
import { Pagination } from '../../components/ui/pagination';
import { ReconciliationCard } from './reconciliation-card';
import { bankAmount, bankCard, bankError, bankMuted, bankRow } from './bank-styles';
import { LineActions } from './line-actions';
import { CsvColumnsDialog, type StatementFile } from './csv-columns-dialog';
import type { CsvPreview } from '../../../shared/schemas/bank-csv';

const STATUS_LABELS: Record<BankStatus, string> = {
  unmatched: 'À rapprocher',
  suggested: 'Suggestions',
  matched: 'Rapprochées',
  ignored: 'Ignorées',
};
const ACCEPT = '.xml,.ofx,.qfx,.qif,.csv,.txt,application/xml,text/xml,text/csv';
const PER_PAGE = 25;
const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');

const styles = {
  page: css({ display: 'grid', gap: '4' }),
  card: bankCard,
  row: bankRow,
  group: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', border: 'none', p: '0', m: '0', minW: '0' }),
  chip: css({
    px: '3',
    py: '1.5',
    borderRadius: 'full',
    borderWidth: '1px',
    borderColor: 'border.default',
    fontSize: 'sm',
    cursor: 'pointer',
    bg: 'bg.default',
    '&[aria-pressed=true]': { bg: 'accent.solid', color: 'fg.onAccent', borderColor: 'accent.solid', fontWeight: '600' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  }),
  result: css({ fontSize: 'sm', bg: 'accent.subtle', borderRadius: 'lg', px: '4', py: '2' }),
  error: bankError,
  amount: cx(bankAmount, css({ fontWeight: '600' })),
  credit: css({ color: 'success' }),
  muted: bankMuted,
};

/** Rapprochement bancaire: import an account's statement, confirm what its lines paid. */
export function BankPage() {
  const utils = trpc.useUtils();
  const money = useMoney();
  const guard = useActionGuard();
  const canWrite = useCan('bankTransactions.match');
  const accounts = trpc.bankAccounts.list.useQuery();
  const wanted = Number(new URLSearchParams(useSearch()).get('account')) || undefined;
  const list = accounts.data?.data ?? [];
  const [picked, setPicked] = useState<number>();
  const accountId = picked ?? wanted ?? list[0]?.id;
  const account = list.find((a) => a.id === accountId);
  const [status, setStatus] = useState<BankStatus | undefined>('suggested');
  const [page, setPage] = useState(1);
  const filterBy = (next: BankStatus | undefined) => {
    setStatus(next);
    setPage(1);
  };
  const lines = trpc.bankTransactions.list.useQuery(
    { account_id: accountId, status, page, per_page: PER_PAGE },
    { enabled: accountId !== undefined, placeholderData: (previous) => previous },
  );
  const [result, setResult] = useState<string>();
  const [error, setError] = useState<string>();
  const upload = trpc.bankAccounts.import.useMutation({ meta: { silent: true } });
  const sure = trpc.bankTransactions.confirmSure.useMutation({ meta: { silent: true } });
  const refresh = () =>
    Promise.all([
      utils.bankTransactions.invalidate(),
      utils.bankAccounts.invalidate(),
      utils.documents.invalidate(),
      utils.expenses.invalidate(),
    ]);

  /** A CSV on an account without confirmed columns, waiting for the user to confirm them. */
  const [columns, setColumns] = useState<{ file: StatementFile; preview: CsvPreview }>();

  async function reportImport(answer: Awaited<ReturnType<typeof upload.mutateAsync>>) {
    const d = answer.data;
    const parts = [answer.messages];
    if (d.suggestions) parts.push(`${d.suggestions} avec une suggestion, dont ${d.matched} sûres`);
    if (d.rejected.length)
      parts.push(`${d.rejected.length} ligne(s) illisible(s) : ${d.rejected.map((r) => `ligne ${r.line} (${r.reason})`).join(' ; ')}`);
    setResult(parts.join(' — '));
    showMessage(answer.messages, 201);
    await refresh();
  }

  async function importFile(file: File) {
    if (!accountId) return;
    setError(undefined);
    setResult(undefined);
    try {
      const content = await readBase64(file);
      // A CSV's columns are shown to be confirmed the first time (and whenever the bank changed its export).
      const answer = await upload.mutateAsync({ id: accountId, ...content, csv_preview: true });
      if (answer.data.csv_mapping_required && answer.data.csv_preview) setColumns({ file: content, preview: answer.data.csv_preview });
      else await reportImport(answer);
    } catch (e) {
      setError(messageOf(e));
    }
  }

  if (accounts.isLoading) return <p className={listStyles.empty}>Chargement…</p>;
  if (list.length === 0)
    return (
      <div className={styles.card}>
        <p>Aucun compte bancaire pour l’instant.</p>
        <p className={styles.muted}>
          Ajoutez votre compte dans <Link href="/settings/bank">Paramètres → Comptes bancaires</Link>, puis importez ses relevés ici.
        </p>
      </div>
    );

  const rows = lines.data?.data ?? [];
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-label="Compte et relevé">
        {list.length > 1 && (
          <fieldset className={styles.group} aria-label="Compte">
            {list.map((a) => (
              <button
                key={a.id}
                type="button"
                className={styles.chip}
                aria-pressed={a.id === accountId}
                onClick={() => {
                  setPicked(a.id);
                  setPage(1);
                }}
              >
                {a.name}
              </button>
            ))}
          </fieldset>
        )}
        {account && (
          <p className={css({ fontSize: 'sm' })}>
            <strong>{account.name}</strong> · <span className={css({ fontFamily: 'mono' })}>{printedIban(account.iban)}</span>
            {account.last_date ? ` · opérations jusqu’au ${formatDateShort(account.last_date)}` : ' · aucun relevé importé'}
          </p>
        )}
        {canWrite && (
          <div className={styles.row}>
            <FileButton accept={ACCEPT} disabled={upload.isPending} onFile={(file) => void importFile(file)}>
              {upload.isPending ? 'Lecture du relevé…' : 'Importer un relevé'}
            </FileButton>
            <span className={styles.muted}>
              camt.053 (XML), OFX, QIF ou CSV de votre banque : une opération déjà importée ne l’est jamais deux fois.
            </span>
          </div>
        )}
        {result && (
          <p role="status" className={styles.result}>
            {result}
          </p>
        )}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </section>

      {columns && accountId !== undefined && (
        <CsvColumnsDialog
          accountId={accountId}
          file={columns.file}
          preview={columns.preview}
          onClose={() => setColumns(undefined)}
          onImported={(answer) => {
            setColumns(undefined);
            void reportImport(answer);
          }}
        />
      )}

      {accountId !== undefined && <ReconciliationCard accountId={accountId} />}

      <section className={styles.card} aria-label="Opérations">
        <div className={cx(styles.row, css({ justifyContent: 'space-between' }))}>
          <fieldset className={styles.group} aria-label="Statut">
            {BANK_STATUSES.map((s) => (
              <button key={s} type="button" className={styles.chip} aria-pressed={status === s} onClick={() => filterBy(s)}>
                {STATUS_LABELS[s]}
              </button>
            ))}
            <button type="button" className={styles.chip} aria-pressed={status === undefined} onClick={() => filterBy(undefined)}>
              Toutes
            </button>
          </fieldset>
          {canWrite && (
            <Button
              loading={sure.isPending}
              onClick={() =>
                void guard(async () => {
                  try {
                    const answer = await sure.mutateAsync({ account_id: accountId });
                    const skipped = answer.data.skipped
                      ? ` ; ${answer.data.skipped} à choisir vous-même (un même document pour deux lignes)`
                      : '';
                    showMessage(`${answer.messages}${skipped}`, 200);
                    await refresh();
                  } catch (e) {
                    setError(messageOf(e));
                  }
                })
              }
            >
              Tout valider (suggestions sûres)
            </Button>
          )}
        </div>
        {lines.isLoading && <p className={listStyles.empty}>Chargement des opérations…</p>}
        {lines.data && rows.length === 0 && (
          <p className={listStyles.empty}>
            {status === 'suggested'
              ? 'Aucune suggestion en attente.'
              : status
                ? `Aucune opération « ${STATUS_LABELS[status]} ».`
                : 'Aucune opération importée.'}
          </p>
        )}
        {rows.length > 0 && (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Libellé</th>
                  <th className={css({ textAlign: 'right' })}>Montant</th>
                  <th>Rapprochement</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((line) => (
                  <tr key={line.id}>
                    <td className={css({ whiteSpace: 'nowrap' })}>{formatDateShort(line.date)}</td>
                    <td>
                      {line.label}
                      {line.counterparty && line.counterparty !== line.label && <div className={styles.muted}>{line.counterparty}</div>}
                    </td>
                    <td className={cx(styles.amount, line.amount > 0 && styles.credit)}>{money(line.amount, line.currency)}</td>
                    <td>
                      <LineActions
                        line={line}
                        canWrite={canWrite}
                        onDone={(message) => {
                          showMessage(message, 200);
                          void refresh();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {lines.data && lines.data.total > PER_PAGE && (
          <Pagination page={page} perPage={PER_PAGE} total={lines.data.total} onChange={(p) => p.page && setPage(p.page)} />
        )}
      </section>
    </div>
  );
}
