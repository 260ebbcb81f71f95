import { useState } from 'react';
import { css } from '../../../../../styled-system/css';
import { errorInfo, trpc } from '../../../trpc';
import { withFrenchSpaces } from '../../../../shared/typography';
import { Button } from '../../../components/ui/button';

const SERVICES = [
  { key: 'flow', label: 'Flow Service' },
  { key: 'directory', label: 'Directory Service' },
] as const;

const list = css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm', listStyle: 'none', p: '0', m: '0' });
const ok = css({ color: 'success', fontWeight: '600' });
const failed = css({ color: 'danger', fontWeight: '600' });
const note = css({ fontSize: 'sm', color: 'fg.muted' });

type Outcome = { kind: 'ok' } | { kind: 'failed'; messages: string[] };

/** « Tester la connexion »: both healthchecks, each service's result on its own line (a refusal stays on screen). */
export function ConnectionCheck({ dirty }: { dirty: boolean }) {
  const utils = trpc.useUtils();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const check = trpc.einvoicing.check.useMutation({
    meta: { silent: true },
    onMutate: () => setOutcome(null),
    onSuccess: () => {
      setOutcome({ kind: 'ok' });
      // The test reads the organisation's own directory line too.
      void utils.einvoicing.ownDirectory.invalidate();
    },
    onError: (error) => setOutcome({ kind: 'failed', messages: [errorInfo(error).messages].flat().map(withFrenchSpaces) }),
  });
  const messages = outcome?.kind === 'failed' ? outcome.messages : [];
  // Messages name their service ("Flow Service : …", typeset as shown); one that names none (the token server, a setting) stands alone.
  const others = messages.filter((m) => !SERVICES.some((s) => m.startsWith(`${s.label} :`)));
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' })}>
        <Button variant="outline" onClick={() => check.mutate()} loading={check.isPending} disabled={dirty}>
          Tester la connexion
        </Button>
        <span className={note}>
          {dirty
            ? 'Enregistrez d’abord vos modifications : le test utilise les paramètres enregistrés.'
            : check.isPending
              ? 'Test en cours…'
              : 'Appelle le contrôle de santé (healthcheck) des deux services de la plateforme.'}
        </span>
      </div>
      {outcome && (
        <ul className={list} aria-live="polite" aria-label="Résultat du test de connexion">
          {SERVICES.map((service) => {
            const failure = messages.find((m) => m.startsWith(`${service.label} :`));
            const unknown = outcome.kind === 'failed' && !failure && others.length > 0;
            return (
              <li key={service.key}>
                {service.label} :{' '}
                {failure ? (
                  <span className={failed}>échec — {failure.slice(service.label.length + 3)}</span>
                ) : unknown ? (
                  <span className={note}>non testé</span>
                ) : (
                  <span className={ok}>joignable</span>
                )}
              </li>
            );
          })}
          {others.map((message) => (
            <li key={message} role="alert" className={failed}>
              {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
