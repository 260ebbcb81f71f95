import { css, cx } from '../../../../styled-system/css';
import { settingsListStyles } from './settings-list-styles';
import { trpc } from '../../trpc';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';

const styles = {
  ...settingsListStyles,
  row: cx(settingsListStyles.row, css({ gridTemplateColumns: { base: '1fr', md: '1fr 160px' } })),
};

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' }) : '—';

/** Paramètres → Appareils: where the user is logged in, and closing what they do not recognise. */
export function DevicesSettingsPage() {
  const utils = trpc.useUtils();
  const devices = trpc.devices.list.useQuery();
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.devices.invalidate();
  };
  const revoke = trpc.devices.revoke.useMutation({ onSuccess: done });
  const revokeOthers = trpc.devices.revokeOthers.useMutation({ onSuccess: done });
  const others = devices.data?.data.filter((d) => !d.current).length ?? 0;

  return (
    <SettingsFrame>
      <section className={settingsCard} aria-label="Appareils">
        <p className={settingsSection}>Appareils connectés à votre compte</p>
        <ul>
          {devices.data?.data.map((d) => (
            <li key={d.id} className={styles.row} data-testid="device-row">
              <div>
                <span className={styles.name}>
                  {d.browser} · {d.os}
                </span>
                {d.current && <span className={styles.badge}>Cet appareil</span>}
                <div className={styles.muted}>
                  Adresse {d.ip || 'inconnue'} · connecté le {when(d.created_at)} · dernière activité le {when(d.last_seen_at)}
                </div>
              </div>
              {!d.current && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={async () => {
                    if (await confirm(`Déconnecter ${d.browser} sur ${d.os} ?`, { title: 'Déconnecter' })) revoke.mutate({ id: d.id });
                  }}
                >
                  Déconnecter
                </Button>
              )}
            </li>
          ))}
        </ul>
        {others > 0 && (
          <div>
            <Button
              variant="outline"
              loading={revokeOthers.isPending}
              onClick={async () => {
                if (await confirm('Déconnecter tous les autres appareils ? Vous resterez connecté(e) ici.', { title: 'Déconnecter' })) {
                  revokeOthers.mutate();
                }
              }}
            >
              Déconnecter tous les autres appareils
            </Button>
          </div>
        )}
      </section>
    </SettingsFrame>
  );
}
