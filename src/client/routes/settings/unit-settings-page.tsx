import { useState, type FormEvent } from 'react';
import { css } from '../../../../styled-system/css';
import { iconButton } from '../../../../styled-system/recipes';
import { unitInputSchema } from '../../../shared/schemas/reference';
import { trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { CloseIcon } from '../../components/icons';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { firstMessage } from '../../../shared/validation-messages';

/** Paramètres → Unités: the units items and document lines are counted in. */
export function UnitSettingsPage() {
  const utils = trpc.useUtils();
  const units = trpc.units.list.useQuery();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.units.invalidate();
  };
  const create = trpc.units.create.useMutation({
    onSuccess: (a) => {
      refresh(a);
      return setName('');
    },
  });
  const remove = trpc.units.delete.useMutation({ onSuccess: refresh });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  function add(event: FormEvent) {
    event.preventDefault();
    const result = unitInputSchema.safeParse({ name });
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) void guard(() => create.mutateAsync(result.data));
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Unités</p>
        <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          {units.data?.data.map((u) => (
            <li
              key={u.id}
              className={css({
                display: 'inline-flex',
                alignItems: 'center',
                gap: '1',
                pl: '3',
                pr: '1',
                py: '1',
                borderRadius: 'full',
                bg: 'bg.subtle',
                fontSize: 'sm',
                fontWeight: '600',
              })}
            >
              {u.name}
              <button
                type="button"
                aria-label={`Supprimer l’unité ${u.name}`}
                className={iconButton({ size: 'sm' })}
                onClick={async () => {
                  if (await confirm(`Supprimer l’unité « ${u.name} » ?`, { title: 'Supprimer' })) remove.mutate({ id: u.id });
                }}
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={add} className={css({ display: 'flex', gap: '3', alignItems: 'flex-end' })} noValidate>
          <TextField
            className={css({ flex: '1', maxW: '280px' })}
            label="Nouvelle unité"
            placeholder="litre"
            value={name}
            error={error}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" loading={create.isPending}>
            Ajouter
          </Button>
        </form>
      </section>
    </SettingsFrame>
  );
}
