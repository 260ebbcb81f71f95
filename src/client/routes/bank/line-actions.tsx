import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { type BankTransaction, SURE } from '../../../shared/schemas/bank';
import { errorInfo, trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { useActionGuard } from '../../lib/use-action-guard';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { AssignDialog } from './assign-dialog';
import { bankError, bankMuted, bankRow } from './bank-styles';

const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');

const styles = {
  row: bankRow,
  error: bankError,
  muted: bankMuted,
  suggestion: css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap', fontSize: 'sm' }),
  sure: css({ fontSize: 'xs', fontWeight: '700', px: '2', borderRadius: 'full', bg: 'successSubtle', color: 'success' }),
  unsure: css({ fontSize: 'xs', fontWeight: '700', px: '2', borderRadius: 'full', bg: 'warningSubtle', color: 'warning' }),
};

/** One line's decision: its suggestions to confirm, or ignore with a reason. */
export function LineActions({ line, canWrite, onDone }: { line: BankTransaction; canWrite: boolean; onDone: (message: string) => void }) {
  const money = useMoney();
  const guard = useActionGuard();
  const [ignoring, setIgnoring] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const match = trpc.bankTransactions.match.useMutation({ meta: { silent: true } });
  const ignore = trpc.bankTransactions.ignore.useMutation({ meta: { silent: true } });
  const unignore = trpc.bankTransactions.unignore.useMutation({ meta: { silent: true } });
  /** A share and the fee kept on top of it, as a line shows what it paid. */
  const paid = (m: { amount: number; fee: number }) =>
    m.fee > 0 ? `${money(m.amount, line.currency)} + frais ${money(m.fee, line.currency)}` : money(m.amount, line.currency);
  const confirmAll = () =>
    guard(async () => {
      try {
        const answer = await match.mutateAsync({
          id: line.id,
          matches: line.suggestions.map((s) => ({ kind: s.kind, id: s.id, amount: s.amount, fee: s.fee })),
        });
        onDone(answer.messages);
      } catch (e) {
        setError(messageOf(e));
      }
    });
  if (line.status === 'ignored')
    return (
      <div className={styles.row}>
        <span className={styles.muted}>Ignorée : {line.ignore_reason}</span>
        {canWrite && (
          <Button
            size="sm"
            variant="ghost"
            loading={unignore.isPending}
            aria-label={`Reprendre l’opération ${line.label}`}
            onClick={() =>
              void guard(async () => {
                try {
                  onDone((await unignore.mutateAsync({ id: line.id })).messages);
                } catch (e) {
                  setError(messageOf(e));
                }
              })
            }
          >
            Reprendre
          </Button>
        )}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </div>
    );
  if (line.status === 'matched')
    return (
      <div className={styles.muted}>
        {line.matches.map((m) => `${m.kind === 'invoice' ? 'Facture' : 'Dépense'} ${m.label} (${paid(m)})`).join(', ')}
      </div>
    );
  return (
    <div className={css({ display: 'grid', gap: '1.5' })}>
      {line.matches.length > 0 && (
        <div className={styles.muted}>Déjà rapprochée : {line.matches.map((m) => `${m.label} (${paid(m)})`).join(', ')}</div>
      )}
      {line.suggestions.length === 0 && <div className={styles.muted}>Aucune facture ni dépense ne correspond.</div>}
      {line.suggestions.map((s) => (
        <div key={`${s.kind}-${s.id}`} className={styles.suggestion}>
          <span className={s.confidence >= SURE ? styles.sure : styles.unsure}>{s.confidence >= SURE ? 'Sûr' : 'À vérifier'}</span>
          <span>
            {s.kind === 'invoice' ? 'Facture' : 'Dépense'} {s.label} · {money(s.amount, line.currency)}
            {s.fee > 0 && ` dont frais ${money(s.fee, line.currency)}`}
          </span>
          <span className={styles.muted}>{s.reason}</span>
        </div>
      ))}
      {canWrite && (
        <div className={styles.row}>
          {line.suggestions.length > 0 && (
            <Button size="sm" loading={match.isPending} onClick={() => void confirmAll()}>
              {line.suggestions.length > 1 ? `Valider les ${line.suggestions.length}` : 'Valider'}
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => setAssigning(true)} aria-haspopup="dialog">
            Associer…
          </Button>
          {!ignoring && (
            <Button size="sm" variant="ghost" onClick={() => setIgnoring(true)}>
              Ignorer…
            </Button>
          )}
        </div>
      )}
      {canWrite && (
        <AssignDialog
          line={line}
          open={assigning}
          onClose={() => setAssigning(false)}
          onDone={(message) => {
            setAssigning(false);
            onDone(message);
          }}
        />
      )}
      {ignoring && (
        <form
          className={styles.row}
          onSubmit={(event) => {
            event.preventDefault();
            void guard(async () => {
              try {
                const answer = await ignore.mutateAsync({ id: line.id, reason });
                onDone(answer.messages);
              } catch (e) {
                setError(messageOf(e));
              }
            });
          }}
        >
          <TextField
            label="Raison"
            value={reason}
            placeholder="Virement interne, frais personnels…"
            onChange={(e) => setReason(e.target.value)}
          />
          <Button size="sm" type="submit" loading={ignore.isPending}>
            Ignorer la ligne
          </Button>
          <Button size="sm" variant="ghost" type="button" onClick={() => setIgnoring(false)}>
            Annuler
          </Button>
        </form>
      )}
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
