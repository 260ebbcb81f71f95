import { useState, type FormEvent } from 'react';
import { css } from '../../../../styled-system/css';
import { taxRateInputSchema } from '../../../shared/schemas/reference';
import { parseAmount } from '../../../shared/money';
import { formatTaxRate } from '../../../shared/totals';
import { trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/field';
import { TextField } from '../../components/ui/text-field';
import { listStyles } from '../../components/ui/list';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { firstMessage } from '../../../shared/validation-messages';
import { FRANCHISE_MENTION } from '../../../shared/vat';
import { useTaxRules } from '../../lib/use-tax-rules';

type Draft = { title: string; rate: string };

/** Checks a draft with the server's schema; the rate is typed the French way ('5,5'). */
function parseDraft(draft: Draft) {
  const rate = parseAmount(draft.rate);
  return taxRateInputSchema.safeParse({ title: draft.title, rate: rate === undefined || Number.isNaN(rate) ? undefined : rate });
}

/**
 * One VAT rate per line and per catalogue item (a radio choice), unless the organisation opts in to several (a VAT
 * and a local tax, for instance): then the line offers checkboxes. The server enforces the same setting.
 */
function TaxesPerLine() {
  const utils = trpc.useUtils();
  const saved = trpc.settings.get.useQuery(undefined, { staleTime: 0 });
  const current = saved.data && 'currency_format' in saved.data ? saved.data : null;
  const save = trpc.settings.update.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      if ('currency_format' in answer.data) utils.settings.get.setData(undefined, answer.data);
    },
  });
  if (!current) return null;
  return (
    <section className={settingsCard}>
      <p className={settingsSection}>Taxes par ligne</p>
      <Checkbox
        checked={current.multiple_taxes_per_line}
        disabled={save.isPending}
        onChange={(checked) => save.mutate({ data: { ...current, multiple_taxes_per_line: checked } })}
      >
        <span>
          <strong>Autoriser plusieurs taxes par ligne</strong>
          <br />
          <span className={css({ color: 'fg.muted' })}>
            Désactivé : chaque ligne et chaque article porte un seul taux de TVA, ou aucun. À activer seulement si vous facturez une taxe en
            plus de la TVA.
          </span>
        </span>
      </Checkbox>
    </section>
  );
}

/** Paramètres → TVA: the organisation's tax rates (French rates from the start), add, edit, delete. */
export function TaxSettingsPage() {
  const utils = trpc.useUtils();
  const taxes = trpc.taxes.list.useQuery();
  const rules = useTaxRules();
  const [draft, setDraft] = useState<Draft>({ title: '', rate: '' });
  const [editing, setEditing] = useState<{ id: number } & Draft>();
  const [error, setError] = useState<string>();
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.taxes.invalidate();
  };
  const create = trpc.taxes.create.useMutation({
    onSuccess: (a) => {
      refresh(a);
      return setDraft({ title: '', rate: '' });
    },
  });
  const update = trpc.taxes.update.useMutation({
    onSuccess: (a) => {
      refresh(a);
      return setEditing(undefined);
    },
  });
  const remove = trpc.taxes.delete.useMutation({ onSuccess: refresh });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  function add(event: FormEvent) {
    event.preventDefault();
    const result = parseDraft(draft);
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) void guard(() => create.mutateAsync(result.data));
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Taux de TVA</p>
        {rules.ready && !rules.vat && (
          <p role="note" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Votre entreprise relève de la franchise en base (Paramètres → Infos de l’entreprise) : les documents et les articles ne
            proposent aucun taux et portent la mention « {FRANCHISE_MENTION} ».
          </p>
        )}
        <table className={listStyles.table}>
          <thead>
            <tr>
              <th>Intitulé</th>
              <th style={{ textAlign: 'right' }}>Taux</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {taxes.data?.data.map((t) =>
              editing?.id === t.id ? (
                <tr key={t.id}>
                  <td>
                    <Input
                      size="sm"
                      aria-label="Intitulé"
                      className={css({ w: 'full' })}
                      value={editing.title}
                      onChange={(e) => setEditing({ ...editing, title: e.target.value })}
                    />
                  </td>
                  <td>
                    <Input
                      size="sm"
                      aria-label="Taux"
                      inputMode="decimal"
                      className={css({ w: '20', textAlign: 'right' })}
                      value={editing.rate}
                      onChange={(e) => setEditing({ ...editing, rate: e.target.value })}
                    />
                  </td>
                  <td className={css({ textAlign: 'right', whiteSpace: 'nowrap' })}>
                    <Button
                      size="sm"
                      loading={update.isPending}
                      onClick={() => {
                        const result = parseDraft(editing);
                        if (!result.success) return showMessage(firstMessage(result.error.issues) ?? 'Taux invalide', 400);
                        update.mutate({ id: t.id, data: result.data });
                      }}
                    >
                      Enregistrer
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setEditing(undefined)}>
                      Annuler
                    </Button>
                  </td>
                </tr>
              ) : (
                <tr key={t.id}>
                  <td>{t.title}</td>
                  <td className={listStyles.number} style={{ textAlign: 'right' }}>
                    {formatTaxRate(t.rate)}
                  </td>
                  <td className={css({ textAlign: 'right', whiteSpace: 'nowrap' })}>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setEditing({ id: t.id, title: t.title, rate: String(t.rate).replace('.', ',') })}
                    >
                      Modifier
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Supprimer ${t.title}`}
                      onClick={async () => {
                        if (await confirm(`Supprimer le taux « ${t.title} » ?`, { title: 'Supprimer' })) remove.mutate({ id: t.id });
                      }}
                    >
                      Supprimer
                    </Button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
        <form
          onSubmit={add}
          className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '2fr 1fr auto' }, gap: '3', alignItems: 'end' })}
          noValidate
        >
          <TextField
            label="Nouvel intitulé"
            placeholder="TVA 8,5 % (DOM)"
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <TextField
            label="Taux (%)"
            inputMode="decimal"
            placeholder="8,5"
            value={draft.rate}
            onChange={(e) => setDraft({ ...draft, rate: e.target.value })}
          />
          <Button type="submit" loading={create.isPending}>
            Ajouter
          </Button>
        </form>
        {error && (
          <p role="alert" className={css({ color: 'danger', fontSize: 'sm' })}>
            {error}
          </p>
        )}
      </section>
      <TaxesPerLine />
    </SettingsFrame>
  );
}
