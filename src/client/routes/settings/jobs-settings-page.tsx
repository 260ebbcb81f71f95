import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { listStyles } from '../../components/ui/list';
import { Spinner } from '../../components/ui/spinner';
import { withFrenchSpaces } from '../../../shared/typography';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');

/** Paramètres → Tâches planifiées: every job of the scheduler, its last run and result, its next run. */
export function JobsSettingsPage() {
  const jobs = trpc.reminders.jobs.useQuery(undefined, { refetchInterval: 60_000 });
  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Tâches planifiées</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Le serveur exécute ces tâches tout seul, à leur heure et à chaque démarrage. Un administrateur peut les lancer tout de suite avec
          la commande npm run jobs:run.
        </p>
        {!jobs.data ? (
          <Spinner label="Chargement des tâches" />
        ) : (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>Tâche</th>
                  <th>Dernière exécution</th>
                  <th>Résultat</th>
                  <th>Prochaine exécution</th>
                </tr>
              </thead>
              <tbody>
                {jobs.data.data.map((job) => (
                  <tr key={job.name}>
                    <td>{job.label}</td>
                    <td>{job.last_finished_at ? when(job.last_finished_at) : 'Jamais'}</td>
                    <td className={css({ color: job.last_status === 'error' ? 'danger' : undefined })}>
                      {job.last_status === null
                        ? '—'
                        : withFrenchSpaces(`${job.last_status === 'ok' ? 'Réussie' : 'Échec'} : ${job.last_message ?? ''}`)}
                    </td>
                    <td>{when(job.next_run_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </SettingsFrame>
  );
}
