import { useState } from 'react';
import type { inferRouterOutputs } from '@trpc/server';
import { css } from '../../../../styled-system/css';
import type { AppRouter } from '../../../server/routers/_app';
import { TAG_KINDS, type Tag, type TagKind } from '../../../shared/schemas/tag';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { listStyles } from '../../components/ui/list';
import { TagChip } from '../../components/tags';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { blankTag, SCOPE_LABELS, TagForm } from './tag-form';

type TagRow = inferRouterOutputs<AppRouter>['tags']['list']['data'][number];

const NOUNS: Record<TagKind, [string, string]> = {
  customer: ['client', 'clients'],
  item: ['article', 'articles'],
  document: ['document', 'documents'],
};
const count = (n: number, kind: TagKind) => `${n} ${NOUNS[kind][n > 1 ? 1 : 0]}`;

/** '3 clients et 1 article': the records carrying the tag, for the kinds listed. */
function usageText(usage: Record<TagKind, number>, kinds: readonly TagKind[] = TAG_KINDS): string {
  const parts = kinds.filter((k) => usage[k] > 0).map((k) => count(usage[k], k));
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} et ${parts.at(-1)}` : (parts[0] ?? '');
}

const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');

/** Paramètres → Étiquettes: the labels customers, items and documents can carry; add, rename, recolour, rescope, delete. */
export function TagSettingsPage() {
  const utils = trpc.useUtils();
  const tags = trpc.tags.list.useQuery();
  // A member names and colours tags; deleting one (off every customer and item) is for the managers.
  const canDelete = useCan('tags.delete');
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<number>();
  const [serverError, setServerError] = useState<{ form: 'new' | number; message: string }>();
  // Tags show on customers and items: their lists refetch with the new names and colours.
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    setServerError(undefined);
    void Promise.all([utils.tags.invalidate(), utils.customers.invalidate(), utils.items.invalidate()]);
  };
  // A refused name (taken) is shown by its field rather than in the snackbar.
  const silent = { meta: { silent: true } };
  const create = trpc.tags.create.useMutation({
    ...silent,
    onSuccess: (a) => {
      refresh(a);
      return setFormKey((k) => k + 1);
    },
    onError: (e) => setServerError({ form: 'new', message: messageOf(e) }),
  });
  const update = trpc.tags.update.useMutation({
    ...silent,
    onSuccess: (a) => {
      refresh(a);
      return setEditing(undefined);
    },
  });
  const remove = trpc.tags.delete.useMutation({ onSuccess: refresh });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  async function save(tag: TagRow, data: Tag) {
    const dropped = TAG_KINDS.filter((k) => tag.scopes.includes(k) && !data.scopes.includes(k) && tag.usage[k] > 0);
    if (dropped.length > 0) {
      const kinds = dropped.map((k) => SCOPE_LABELS[k].toLowerCase()).join(' et aux ');
      const ok = await confirm(
        `« ${tag.name} » ne s’appliquera plus aux ${kinds} : elle sera retirée des ${usageText(tag.usage, dropped)} qui la portent. Continuer ?`,
        { title: 'Changer la portée' },
      );
      if (!ok) return;
    }
    update.mutate({ id: tag.id, data }, { onError: (e) => setServerError({ form: tag.id, message: messageOf(e) }) });
  }

  async function askDelete(tag: TagRow) {
    const used = usageText(tag.usage);
    const message = used
      ? `Supprimer l’étiquette « ${tag.name} » ? Elle est posée sur ${used} : elle leur sera retirée. Une étiquette n’est qu’un libellé, ces fiches ne sont pas modifiées autrement.`
      : `Supprimer l’étiquette « ${tag.name} » ?`;
    if (await confirm(message, { title: 'Supprimer l’étiquette' })) remove.mutate({ id: tag.id });
  }

  const list = tags.data?.data ?? [];
  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Étiquettes</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Classez vos clients, vos articles et vos documents, puis filtrez les listes par étiquette.
        </p>
        {tags.data && list.length === 0 ? (
          <div className={listStyles.empty}>
            <TagChip name="Aucune étiquette" color="gray" />
            <p>Aucune étiquette pour l’instant. Créez la première ci-dessous : « Grand compte », « À relancer », « Bio »…</p>
          </div>
        ) : (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>Étiquette</th>
                  <th>S’applique aux</th>
                  <th>Utilisation</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {list.map((t) =>
                  editing === t.id ? (
                    <tr key={t.id}>
                      <td colSpan={4}>
                        <TagForm
                          title={`Modifier l’étiquette ${t.name}`}
                          initial={{ name: t.name, color: t.color, scopes: t.scopes }}
                          submitLabel="Enregistrer"
                          pending={update.isPending}
                          error={serverError?.form === t.id ? serverError.message : undefined}
                          onSubmit={(data) => void save(t, data)}
                          onCancel={() => {
                            setEditing(undefined);
                            return setServerError(undefined);
                          }}
                          onNameChange={() => setServerError(undefined)}
                        />
                      </td>
                    </tr>
                  ) : (
                    <tr key={t.id}>
                      <td>
                        <TagChip name={t.name} color={t.color} />
                      </td>
                      <td>{t.scopes.map((k) => SCOPE_LABELS[k]).join(', ')}</td>
                      <td className={css({ color: 'fg.muted' })}>{usageText(t.usage) || 'Aucune fiche'}</td>
                      <td className={css({ textAlign: 'right', whiteSpace: 'nowrap' })}>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Modifier ${t.name}`}
                          onClick={() => {
                            setEditing(t.id);
                            return setServerError(undefined);
                          }}
                        >
                          Modifier
                        </Button>
                        {canDelete && (
                          <Button size="sm" variant="ghost" aria-label={`Supprimer ${t.name}`} onClick={() => void askDelete(t)}>
                            Supprimer
                          </Button>
                        )}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
        <div className={css({ borderTopWidth: '1px', borderColor: 'border.default', pt: '4' })}>
          <TagForm
            key={formKey}
            title="Ajouter une étiquette"
            initial={blankTag()}
            submitLabel="Ajouter"
            pending={create.isPending}
            error={serverError?.form === 'new' ? serverError.message : undefined}
            onSubmit={(data) => void guard(() => create.mutateAsync(data))}
            onNameChange={() => setServerError(undefined)}
          />
        </div>
      </section>
    </SettingsFrame>
  );
}
