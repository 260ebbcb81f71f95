import { css, cx } from '../../../../styled-system/css';
import type { SenderState } from '../../../shared/schemas/email-settings';
import { trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';

const row = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', fontSize: 'sm' });
const badge = css({ fontSize: 'xs', fontWeight: '700', px: '2', py: '0.5', borderRadius: 'full', whiteSpace: 'nowrap' });
const pending = css({ color: 'warning', bg: 'warningSubtle' });
const confirmed = css({ color: 'success', bg: 'successSubtle' });
const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
const note = css({ color: 'fg.muted', flex: '1', minWidth: '16rem' });

/**
 * Where the saved sender address stands: « à confirmer » until the link mailed to it is opened (mail keeps the
 * previous From meanwhile, named here), then « confirmée ». The link can be sent again, replacing the previous one.
 */
export function SenderAddressStatus({ state, dirty }: { state: SenderState; dirty: boolean }) {
  const utils = trpc.useUtils();
  const resend = trpc.emailSettings.resendSenderLink.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.emailSettings.sender.setData(undefined, answer.data);
    },
  });
  if (state.status === 'none')
    return (
      <p className={cx(row, note)} data-testid="sender-status">
        Sans adresse d’expédition, vos e-mails partent de {state.in_use}.
      </p>
    );
  if (state.status === 'confirmed')
    return (
      <div className={row} data-testid="sender-status">
        <span className={cx(badge, confirmed)}>confirmée</span>
        <span className={note}>Vos e-mails partent de {state.address}.</span>
      </div>
    );
  const until =
    state.expires_at && !state.expired
      ? ` Le lien est valable jusqu’au ${dateTime.format(new Date(state.expires_at)).replace(/^1 /, '1er ')}.`
      : '';
  return (
    <div className={row} data-testid="sender-status">
      <span className={cx(badge, pending)}>à confirmer</span>
      <span className={note}>
        {state.expired
          ? `Le lien envoyé à ${state.address} a expiré : renvoyez-le.`
          : `Ouvrez le lien envoyé à ${state.address} pour confirmer cette adresse.${until}`}{' '}
        D’ici là, vos e-mails partent de {state.in_use}.
      </span>
      <Button variant="outline" size="sm" onClick={() => resend.mutate()} loading={resend.isPending} disabled={dirty}>
        Renvoyer le lien
      </Button>
    </div>
  );
}
