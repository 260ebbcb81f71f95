import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { parisDateOf } from '../../../shared/paris-date';
import { RECEIVED_PROBLEMS } from '../../../shared/einvoice-received-states';
import type { ReceivedFlow } from '../../../shared/schemas/einvoice-inbox';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { listStyles } from '../../components/ui/list';
import { documentHref } from '../documents/document-meta';

const styles = {
  panel: css({ display: 'grid', gap: '2', mb: '4', fontSize: 'sm' }),
  head: css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between' }),
  title: css({ fontWeight: '700', fontSize: 'md' }),
  muted: css({ color: 'fg.muted' }),
  problem: css({ color: 'danger', fontWeight: '600' }),
  list: css({ listStyle: 'none', m: '0', p: '0', display: 'grid', gap: '1.5' }),
  row: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'baseline' }),
  chip: css({ display: 'inline-block', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: '600' }),
  chipOk: css({ bg: 'successSubtle', color: 'success' }),
  chipProblem: css({ bg: 'dangerSubtle', color: 'danger' }),
  chipNeutral: css({ bg: 'bg.subtle', color: 'fg.muted' }),
  link: css({ color: 'accent.default', fontWeight: '600' }),
};

const parisTime = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${parisTime.format(new Date(iso))}`;

/** The flows shown: those that need the user first, then the latest. */
const SHOWN = 8;

function chipOf(flow: ReceivedFlow): string {
  if (RECEIVED_PROBLEMS.includes(flow.state)) return styles.chipProblem;
  return flow.state === 'duplicate' ? styles.chipNeutral : styles.chipOk;
}

function FlowRow({ flow, onOpenExpense }: { flow: ReceivedFlow; onOpenExpense: (id: number) => void }) {
  const what =
    flow.kind === 'invoice'
      ? `Facture fournisseur ${flow.name || flow.flow_id}`
      : flow.kind === 'report'
        ? `Déclaration e-reporting (flux ${flow.flow_id})`
        : `Statut « ${flow.status_label ?? flow.status_code ?? '?'} »${flow.document_number ? ` de la facture ${flow.document_number}` : ''}`;
  return (
    <li className={styles.row} data-testid="received-flow">
      <span className={cx(styles.chip, chipOf(flow))}>{flow.state_label}</span>
      <span>{what}</span>
      {flow.expense_id !== null && (
        <Button variant="link" size="sm" onClick={() => onOpenExpense(flow.expense_id as number)}>
          Voir la dépense
        </Button>
      )}
      {flow.document_id !== null && flow.document_type !== null && (
        <Link href={documentHref({ id: flow.document_id, type: flow.document_type }, 'view')} className={styles.link}>
          Voir la facture
        </Link>
      )}
      <span className={styles.muted}>reçu {when(flow.received_at)}</span>
      {flow.reason && <span className={RECEIVED_PROBLEMS.includes(flow.state) ? styles.problem : styles.muted}>{flow.reason}</span>}
    </li>
  );
}

/**
 * What came from the Plateforme Agréée: « Synchroniser » to receive now (the server also does it every few minutes),
 * how the last synchronisation ended, and the flows received — « Illisible », « Facture inconnue » first, with why.
 */
export function PlatformInbox({ onOpenExpense }: { onOpenExpense: (id: number) => void }) {
  const utils = trpc.useUtils();
  const maySync = useCan('einvoicing.sync');
  const inbox = trpc.einvoicing.inbox.useQuery();
  const sync = trpc.einvoicing.sync.useMutation({
    onSuccess: (answer) => showMessage(answer.messages, 200),
    onSettled: () => {
      void utils.einvoicing.inbox.invalidate();
      void utils.expenses.list.invalidate();
    },
  });
  if (!inbox.data?.connected) return null;
  const { data: flows, last_sync_at: lastSync, last_error: lastError } = inbox.data;
  const problems = flows.filter((f) => RECEIVED_PROBLEMS.includes(f.state));
  const shown = [...problems, ...flows.filter((f) => !RECEIVED_PROBLEMS.includes(f.state))].slice(0, SHOWN);
  return (
    <section className={cx(listStyles.panel, styles.panel)} aria-labelledby="platform-inbox-title">
      <div className={styles.head}>
        <div>
          <h2 id="platform-inbox-title" className={styles.title}>
            Reçu de la plateforme agréée
          </h2>
          <p className={styles.muted} aria-live="polite">
            {lastSync ? `Dernière synchronisation ${when(lastSync)}` : 'Pas encore synchronisé'}
            {problems.length > 0 && ` · ${problems.length} à examiner`}
          </p>
        </div>
        {maySync && (
          <Button variant="outline" onClick={() => sync.mutate()} loading={sync.isPending}>
            Synchroniser
          </Button>
        )}
      </div>
      {lastError && (
        <p role="alert" className={styles.problem}>
          {lastError}
        </p>
      )}
      {shown.length > 0 && (
        <ul className={styles.list} aria-label="Flux reçus">
          {shown.map((flow) => (
            <FlowRow key={flow.id} flow={flow} onOpenExpense={onOpenExpense} />
          ))}
        </ul>
      )}
    </section>
  );
}
