import { useState, type FormEvent } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { settingsListStyles } from './settings-list-styles';
import { inviteInputSchema } from '../../../shared/schemas/members';
import { ROLE_LABELS, ROLES, type Role } from '../../../shared/roles';
import { firstMessage } from '../../../shared/validation-messages';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { SeatsNote } from '../subscription/seats-note';

const ROLE_HINTS: Record<Role, string> = {
  owner: 'tout, y compris l’abonnement et la propriété',
  admin: 'tout sauf l’abonnement',
  member: 'documents, clients, articles, dépenses',
  accountant: 'lecture et exports seulement',
};

const styles = {
  ...settingsListStyles,
  row: cx(settingsListStyles.row, css({ gridTemplateColumns: { base: '1fr', md: '1fr 200px 280px' } })),
  actions: css({ display: 'flex', gap: '1', justifyContent: 'flex-end', flexWrap: 'wrap' }),
};

const dateFr = (iso: string) => new Date(iso).toLocaleDateString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });

/** Paramètres → Mon équipe: the members and their roles, the invitations waiting for an answer. */
export function MembersSettingsPage() {
  const utils = trpc.useUtils();
  const team = trpc.members.list.useQuery();
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  // Everyone sees the team; changing it is for the roles the server lets (the procedures' rules, lib/procedure-rules.ts).
  const canManage = useCan('members.updateRole');
  const canInvite = useCan('members.invite');
  const canTransfer = useCan('members.transferOwnership');
  const isOwner = me.data?.role === 'owner';
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<string>();
  const guard = useActionGuard();
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.members.invalidate();
    void utils.auth.me.invalidate();
    void utils.subscription.invalidate(); // seats taken or freed
  };
  const invite = trpc.members.invite.useMutation({
    onSuccess: (answer) => {
      done(answer);
      setEmail('');
    },
  });
  const updateRole = trpc.members.updateRole.useMutation({ onSuccess: done });
  const remove = trpc.members.remove.useMutation({ onSuccess: done });
  const revoke = trpc.members.revokeInvitation.useMutation({ onSuccess: done });
  const transfer = trpc.members.transferOwnership.useMutation({ onSuccess: done });
  // An admin names no owner: only an owner hands the organisation over (the server refuses it too).
  const offered = ROLES.filter((r) => isOwner || r !== 'owner');
  // The last owner can be neither demoted nor removed (the server answers 409): no control that can only fail.
  const owners = team.data?.members.filter((m) => m.role === 'owner').length ?? 0;
  const editable = (m: { role: Role }) => canManage && (isOwner || m.role !== 'owner') && !(m.role === 'owner' && owners < 2);

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = inviteInputSchema.safeParse({ email, role });
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) void guard(() => invite.mutateAsync(result.data));
  }

  return (
    <SettingsFrame>
      <section className={settingsCard} aria-label="Membres">
        <p className={settingsSection}>Membres de l’équipe</p>
        <ul>
          {team.data?.members.map((m) => (
            <li key={m.id} className={styles.row} data-testid="member-row">
              <div>
                <span className={styles.name}>
                  {m.first_name} {m.last_name}
                </span>
                {m.current && <span className={styles.badge}>Vous</span>}
                <div className={styles.muted}>
                  {m.email} · depuis le {dateFr(m.created_at)}
                </div>
              </div>
              {editable(m) ? (
                <Select
                  aria-label={`Rôle de ${m.first_name} ${m.last_name}`}
                  value={m.role}
                  options={offered.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                  onChange={(role) => updateRole.mutate({ id: m.id, role: role as Role })}
                />
              ) : (
                <span className={styles.muted}>{ROLE_LABELS[m.role]}</span>
              )}
              <div className={styles.actions}>
                {canTransfer && !m.current && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={async () => {
                      const ok = await confirm(
                        `${m.first_name} ${m.last_name} deviendra propriétaire ; vous resterez administrateur. Continuer ?`,
                        { title: 'Transmettre la propriété' },
                      );
                      if (ok) transfer.mutate({ id: m.id });
                    }}
                  >
                    Transmettre la propriété
                  </Button>
                )}
                {editable(m) && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={async () => {
                      const who = m.current ? 'Quitter l’équipe ?' : `Retirer ${m.first_name} ${m.last_name} de l’équipe ?`;
                      if (await confirm(who, { title: 'Retirer' })) remove.mutate({ id: m.id });
                    }}
                  >
                    {m.current ? 'Quitter' : 'Retirer'}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>

      {canInvite && (
        <section className={settingsCard} aria-label="Invitations" style={{ marginTop: 20 }}>
          <p className={settingsSection}>Inviter une personne</p>
          <form onSubmit={submit} noValidate className={css({ display: 'flex', gap: '3', alignItems: 'flex-end', flexWrap: 'wrap' })}>
            <TextField
              className={css({ flex: '1', minW: '240px' })}
              label="Adresse e-mail"
              type="email"
              placeholder="prenom.nom@exemple.fr"
              value={email}
              error={error}
              onChange={(e) => setEmail(e.target.value)}
            />
            <Field label="Rôle">
              <Select
                value={role}
                options={offered.map((r) => ({ value: r, label: `${ROLE_LABELS[r]} — ${ROLE_HINTS[r]}` }))}
                onChange={(next) => setRole(next as Role)}
              />
            </Field>
            <Button type="submit" loading={invite.isPending}>
              Envoyer l’invitation
            </Button>
          </form>
          <p className={styles.muted}>Le lien reçu par e-mail est valable 7 jours et ne sert qu’une fois.</p>
          <SeatsNote />
          {team.data && team.data.invitations.length > 0 && (
            <>
              <p className={settingsSection}>Invitations en attente</p>
              <ul>
                {team.data.invitations.map((i) => (
                  <li key={i.id} className={styles.row} data-testid="invitation-row">
                    <div>
                      <span className={styles.name}>{i.email}</span>
                      <div className={styles.muted}>expire le {dateFr(i.expires_at)}</div>
                    </div>
                    <span className={styles.muted}>{ROLE_LABELS[i.role]}</span>
                    <div className={styles.actions}>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={async () => {
                          if (await confirm(`Révoquer l’invitation de ${i.email} ?`, { title: 'Révoquer' })) revoke.mutate({ id: i.id });
                        }}
                      >
                        Révoquer
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </SettingsFrame>
  );
}
