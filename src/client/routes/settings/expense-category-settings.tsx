import { useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { expenseCategoryInputSchema, type ExpenseCategory } from '../../../shared/schemas/expense';
import { fieldMessages } from '../../../shared/validation-messages';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { settingsCard, settingsSection } from './settings-frame';

const styles = {
  row: css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', md: 'minmax(0, 2fr) 9rem 13rem' },
    gap: '2',
    alignItems: 'end',
    py: '2',
    borderTopWidth: '1px',
    borderColor: 'border.default',
  }),
  archived: css({ opacity: 0.6 }),
  // The list's rows share the column headings above them: their labels are for screen readers only.
  quietLabels: css({ '& label': { srOnly: true } }),
  heading: css({ fontSize: 'xs', fontWeight: '700', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: '0.06em' }),
  actions: css({ display: 'flex', gap: '1', flexWrap: 'wrap', justifyContent: 'flex-end', minH: '10', alignItems: 'center' }),
  badge: css({ fontSize: 'xs', fontWeight: '600', color: 'fg.muted', px: '2' }),
};

type Draft = { label: string; account: string };

/** Checks a category with the server's schema: its errors keyed by field. */
function check(input: { code?: string; label: string; account: string }) {
  const result = expenseCategoryInputSchema.safeParse(input);
  return result.success ? { data: result.data, errors: {} } : { data: null, errors: fieldMessages(result.error.issues) };
}

function CategoryRow({ category }: { category: ExpenseCategory }) {
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<Draft>({ label: category.label, account: category.account });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.expenses.invalidate();
  };
  const save = trpc.expenses.saveCategory.useMutation({ onSuccess: done });
  const archive = trpc.expenses.archiveCategory.useMutation({ onSuccess: done });
  const remove = trpc.expenses.deleteCategory.useMutation({ onSuccess: done });
  const canSave = useCan('expenses.saveCategory');
  const canArchive = useCan('expenses.archiveCategory');
  const canDelete = useCan('expenses.deleteCategory');
  const dirty = draft.label !== category.label || draft.account !== category.account;
  function submit() {
    const { data, errors: next } = check({ code: category.code, ...draft });
    setErrors(next);
    if (data) save.mutate(data);
  }
  return (
    <li className={cx(styles.row, styles.quietLabels, category.archived && styles.archived)} data-testid={`category-${category.code}`}>
      <TextField
        label="Nom"
        value={draft.label}
        onChange={(e) => setDraft({ ...draft, label: e.target.value })}
        error={errors.label}
        disabled={category.archived || !canSave}
      />
      <TextField
        label="Compte"
        inputMode="numeric"
        value={draft.account}
        onChange={(e) => setDraft({ ...draft, account: e.target.value })}
        error={errors.account}
        disabled={category.archived || !canSave}
      />
      <div className={styles.actions}>
        {category.archived ? (
          <>
            <span className={styles.badge}>Archivée</span>
            {canArchive && (
              <Button
                variant="outline"
                size="sm"
                loading={archive.isPending}
                onClick={() => archive.mutate({ code: category.code, archived: false })}
              >
                Restaurer
              </Button>
            )}
          </>
        ) : (
          <>
            {dirty && canSave && (
              <Button size="sm" loading={save.isPending} onClick={submit}>
                Enregistrer
              </Button>
            )}
            {canArchive && (
              <Button
                variant="ghost"
                size="sm"
                loading={archive.isPending}
                onClick={() => archive.mutate({ code: category.code, archived: true })}
              >
                Archiver
              </Button>
            )}
            {canDelete && (
              <Button
                variant="ghost"
                size="sm"
                loading={remove.isPending}
                title="Supprimée si aucune dépense ne l’utilise, archivée sinon"
                onClick={() => remove.mutate({ code: category.code })}
              >
                Supprimer
              </Button>
            )}
          </>
        )}
      </div>
    </li>
  );
}

/**
 * Paramètres → Comptabilité: the expense categories and the plan comptable account each books to. One in use is
 * archived, never deleted: its expenses keep their label and account.
 */
export function ExpenseCategorySettings() {
  const utils = trpc.useUtils();
  const categories = trpc.expenses.categories.useQuery(undefined, { staleTime: 0 });
  const [draft, setDraft] = useState<Draft>({ label: '', account: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const canAdd = useCan('expenses.saveCategory');
  const add = trpc.expenses.saveCategory.useMutation({
    onSuccess: () => {
      showMessage('Catégorie ajoutée', 200);
      setDraft({ label: '', account: '' });
      void utils.expenses.invalidate();
    },
  });
  function submit() {
    const { data, errors: next } = check(draft);
    setErrors(next);
    if (data) add.mutate(data);
  }
  const list = categories.data?.data ?? [];
  // Archived ones last: they are kept for the record, not offered.
  const ordered = [...list.filter((c) => !c.archived), ...list.filter((c) => c.archived)];
  return (
    <section className={settingsCard} aria-labelledby="expense-categories-title">
      <p className={settingsSection} id="expense-categories-title">
        Catégories de dépenses
      </p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Chaque catégorie est imputée à un compte de charges du plan comptable (classe 6), ou d’immobilisations (classe 2) pour le matériel
        durable : sa TVA est alors déduite ligne 19 de la CA3. Une catégorie utilisée par des dépenses est archivée plutôt que supprimée :
        ses dépenses gardent leur compte.
      </p>
      {canAdd && (
        <div className={cx(styles.row, css({ borderTopWidth: '0' }))}>
          <TextField
            label="Nouvelle catégorie"
            placeholder="ex. Carburant"
            value={draft.label}
            onChange={(e) => setDraft({ ...draft, label: e.target.value })}
            error={errors.label}
          />
          <TextField
            label="Compte"
            inputMode="numeric"
            placeholder="606100"
            value={draft.account}
            onChange={(e) => setDraft({ ...draft, account: e.target.value })}
            error={errors.account}
          />
          <div className={styles.actions}>
            <Button onClick={submit} loading={add.isPending}>
              Ajouter
            </Button>
          </div>
        </div>
      )}
      {!categories.data ? (
        <Spinner label="Chargement des catégories" />
      ) : (
        <ul aria-label="Catégories de dépenses">
          <li className={cx(styles.row, css({ hideBelow: 'md' }))} aria-hidden="true">
            <span className={styles.heading}>Catégorie</span>
            <span className={styles.heading}>Compte</span>
            <span />
          </li>
          {ordered.map((c) => (
            <CategoryRow key={`${c.code}-${c.label}-${c.account}-${c.archived}`} category={c} />
          ))}
        </ul>
      )}
    </section>
  );
}
