import { css } from '../../../../styled-system/css';
import { RESENDABLE_STATES } from '../../../shared/einvoice-flows';
import { formatDateShort } from '../../../shared/format';
import { parisDateOf } from '../../../shared/paris-date';
import type { Transmission } from '../../../shared/schemas/einvoice-lifecycle';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';

const styles = {
  box: css({ mt: '2', display: 'grid', gap: '1' }),
  line: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'baseline' }),
  label: css({ fontWeight: '600' }),
  muted: css({ color: 'fg.muted' }),
  problem: css({ color: 'danger', fontWeight: '600' }),
  reasons: css({ listStyle: 'none', m: '0', p: '0', display: 'grid', gap: '1' }),
};

const parisTime = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${parisTime.format(new Date(iso))}`;

/**
 * Where the invoice's submission to the platform's API stands, under its lifecycle: the flow id, the acknowledgement,
 * the platform's reasons in French (its raw codes beside them), and « Renvoyer » once fixed or given up.
 */
export function TransmissionStatus({ documentId, transmission }: { documentId: number; transmission: Transmission }) {
  const utils = trpc.useUtils();
  const mayTransmit = useCan('einvoice.transmit');
  const transmit = trpc.einvoice.transmit.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.einvoice.lifecycle.invalidate({ id: documentId });
    },
  });
  const { state, flow_id: flowId, reasons, error, next_attempt_at: nextAt } = transmission;
  const resendable = RESENDABLE_STATES.includes(state);

  return (
    <div className={styles.box} data-testid="transmission">
      <p className={styles.line}>
        <span className={styles.label}>Plateforme agréée :</span>
        <span className={resendable ? styles.problem : undefined}>{transmission.state_label}</span>
        {flowId && (
          <span className={styles.muted}>
            flux <code>{flowId}</code>
          </span>
        )}
      </p>
      {state === 'pending' && nextAt && (
        <p className={styles.muted}>
          {error ? `${error}. ` : ''}Nouvel essai automatique {when(nextAt)}.
        </p>
      )}
      {state === 'to_resend' && error && <p role="alert">{error.charAt(0).toUpperCase() + error.slice(1)}.</p>}
      {reasons.length > 0 && (
        <ul className={styles.reasons} aria-label="Motifs de la plateforme">
          {reasons.map((reason) => (
            <li key={`${reason.code}-${reason.item}`} className={styles.line}>
              <span className={reason.level === 'Error' ? styles.problem : undefined}>{reason.message}</span>
              <span className={styles.muted}>
                {reason.item ? `${reason.item} · ` : ''}code {reason.code}
              </span>
            </li>
          ))}
        </ul>
      )}
      {resendable && mayTransmit && (
        <div>
          <Button size="sm" variant="outline" loading={transmit.isPending} onClick={() => transmit.mutate({ id: documentId })}>
            Renvoyer
          </Button>
        </div>
      )}
    </div>
  );
}
