import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { bankAccountInputSchema, type BankAccount } from '../../../shared/schemas/bank';
import { printedIban } from '../../../shared/iban';
import { formatDateShort } from '../../../shared/format';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { TextField } from '../../components/ui/text-field';
import { listStyles } from '../../components/ui/list';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';

type Draft = { name: string; iban: string; bic: string; default: boolean };
const blank = (): Draft => ({ name: '', iban: '', bic: '', default: false });
const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');

const styles = {
  form: css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: '1fr 1.4fr 0.8fr' }, alignItems: 'start' }),
  actions: css({ display: 'flex', gap: '2', alignItems: 'center', gridColumn: '1 / -1', flexWrap: 'wrap' }),
  error: css({ color: 'danger', fontSize: 'sm', fontWeight: '600', gridColumn: '1 / -1' }),
  iban: css({ fontFamily: 'mono', fontSize: 'sm', whiteSpace: 'nowrap' }),
  badge: css({
    fontSize: 'xs',
    fontWeight: '700',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    bg: 'accent.subtle',
    color: 'accent.fg',
    ml: '2',
  }),
};

/** Name, IBAN, BIC and default of an account, checked with the server's schema before it is sent. */
function AccountForm({
  title,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial: Draft;
  submitLabel: string;
  pending: boolean;
  error?: string;
  onSubmit: (draft: Draft) => void;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = bankAccountInputSchema.safeParse(draft);
    if (!parsed.success) {
      const found: Partial<Record<keyof Draft, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof Draft] ??= issue.message;
      return setErrors(found);
    }
    setErrors({});
    onSubmit(draft);
  }
  const set = (key: keyof Draft) => (value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));
  return (
    <form aria-label={title} className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Nom du compte"
        required
        value={draft.name}
        error={errors.name}
        placeholder="Compte courant"
        onChange={(e) => set('name')(e.target.value)}
      />
      <TextField
        label="IBAN"
        required
        value={draft.iban}
        error={errors.iban}
        placeholder="FR76 3000 4000 0312 3456 7890 143"
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => set('iban')(e.target.value)}
        onBlur={() => errors.iban === undefined && draft.iban && setDraft((d) => ({ ...d, iban: printedIban(d.iban) }))}
      />
      <TextField
        label="BIC"
        value={draft.bic}
        error={errors.bic}
        placeholder="BNPAFRPP"
        autoComplete="off"
        onChange={(e) => set('bic')(e.target.value)}
      />
      <div className={styles.actions}>
        <Checkbox checked={draft.default} onChange={set('default')}>
          Compte par défaut (imprimé sur les factures)
        </Checkbox>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Annuler
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </form>
  );
}

/** Paramètres → Comptes bancaires: the business's accounts, the default one printed on its invoices; each opens its statements. */
export function BankSettingsPage() {
  const utils = trpc.useUtils();
  const accounts = trpc.bankAccounts.list.useQuery();
  const canManage = useCan('bankAccounts.create');
  const guard = useActionGuard();
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<number>();
  const [serverError, setServerError] = useState<{ form: 'new' | number; message: string }>();
  const silent = { meta: { silent: true } };
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    setServerError(undefined);
    void utils.bankAccounts.invalidate();
  };
  const create = trpc.bankAccounts.create.useMutation({
    ...silent,
    onSuccess: (a) => {
      done(a);
      setFormKey((k) => k + 1);
    },
    onError: (e) => setServerError({ form: 'new', message: messageOf(e) }),
  });
  const update = trpc.bankAccounts.update.useMutation({
    ...silent,
    onSuccess: (a) => {
      done(a);
      setEditing(undefined);
    },
  });
  const remove = trpc.bankAccounts.delete.useMutation({ onSuccess: done });

  async function askDelete(account: BankAccount) {
    const lines = account.transactions > 0 ? ` Ses ${account.transactions} opérations importées seront effacées.` : '';
    if (
      await confirm(`Supprimer le compte « ${account.name} » (${printedIban(account.iban)}) ?${lines}`, {
        title: 'Supprimer le compte',
        confirmLabel: 'Supprimer',
      })
    )
      remove.mutate({ id: account.id });
  }

  const list = accounts.data?.data ?? [];
  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Comptes bancaires</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Le compte par défaut est imprimé sur vos factures. Importez les relevés de chaque compte pour rapprocher les virements reçus de
          vos factures et les prélèvements de vos dépenses.
        </p>
        {accounts.isLoading && <p className={listStyles.empty}>Chargement des comptes…</p>}
        {accounts.data && list.length === 0 && (
          <div className={listStyles.empty}>
            <p>Aucun compte bancaire pour l’instant.{canManage ? ' Ajoutez le premier ci-dessous : son IBAN est vérifié.' : ''}</p>
          </div>
        )}
        {list.length > 0 && (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>Compte</th>
                  <th>IBAN</th>
                  <th>Opérations</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {list.map((a) =>
                  editing === a.id ? (
                    <tr key={a.id}>
                      <td colSpan={4}>
                        <AccountForm
                          title={`Modifier le compte ${a.name}`}
                          initial={{ name: a.name, iban: printedIban(a.iban), bic: a.bic, default: a.default }}
                          submitLabel="Enregistrer"
                          pending={update.isPending}
                          error={serverError?.form === a.id ? serverError.message : undefined}
                          onSubmit={(draft) =>
                            update.mutate({ id: a.id, ...draft }, { onError: (e) => setServerError({ form: a.id, message: messageOf(e) }) })
                          }
                          onCancel={() => {
                            setEditing(undefined);
                            setServerError(undefined);
                          }}
                        />
                      </td>
                    </tr>
                  ) : (
                    <tr key={a.id}>
                      <td>
                        {a.name}
                        {a.default && <span className={styles.badge}>Par défaut</span>}
                        {a.bic && <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>BIC {a.bic}</div>}
                      </td>
                      <td className={styles.iban}>{printedIban(a.iban)}</td>
                      <td>
                        <Link
                          href={`/bank?account=${a.id}`}
                          className={css({ color: 'accent.fg', textDecoration: 'underline', fontWeight: '600' })}
                        >
                          {a.transactions === 0
                            ? 'Importer un relevé'
                            : `${a.transactions} opération${a.transactions > 1 ? 's' : ''}${a.to_review ? `, ${a.to_review} à rapprocher` : ''}`}
                        </Link>
                        {a.last_date && (
                          <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>Jusqu’au {formatDateShort(a.last_date)}</div>
                        )}
                      </td>
                      <td className={css({ textAlign: 'right', whiteSpace: 'nowrap' })}>
                        {canManage && (
                          <>
                            <Button size="sm" variant="ghost" aria-label={`Modifier ${a.name}`} onClick={() => setEditing(a.id)}>
                              Modifier
                            </Button>
                            <Button size="sm" variant="ghost" aria-label={`Supprimer ${a.name}`} onClick={() => void askDelete(a)}>
                              Supprimer
                            </Button>
                          </>
                        )}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
        {canManage && (
          <div className={css({ borderTopWidth: '1px', borderColor: 'border.default', pt: '4' })}>
            <AccountForm
              key={formKey}
              title="Ajouter un compte bancaire"
              initial={blank()}
              submitLabel="Ajouter le compte"
              pending={create.isPending}
              error={serverError?.form === 'new' ? serverError.message : undefined}
              onSubmit={(draft) => void guard(() => create.mutateAsync(draft))}
            />
          </div>
        )}
      </section>
    </SettingsFrame>
  );
}
