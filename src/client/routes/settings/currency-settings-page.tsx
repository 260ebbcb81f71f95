import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { currencyInputSchema } from '../../../shared/schemas/currency';
import { CURRENCY_CATALOGUE } from '../../../shared/currencies';
import { trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Combobox } from '../../components/ui/combobox';
import { TextField } from '../../components/ui/text-field';
import { Spinner } from '../../components/ui/spinner';
import { listStyles } from '../../components/ui/list';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { CurrencyRow } from './currency-row';
import { fieldMessages } from '../../../shared/validation-messages';

type Errors = Partial<Record<'code' | 'rate', string>>;

/** Paramètres → Devises: the currencies customers can be invoiced in, each with a hand-typed rate against the base. */
export function CurrencySettingsPage() {
  const utils = trpc.useUtils();
  const currencies = trpc.currencies.list.useQuery();
  const [code, setCode] = useState('');
  const [rate, setRate] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const create = trpc.currencies.create.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.currencies.invalidate();
      setCode('');
      setRate('');
    },
  });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  const list = useMemo(() => currencies.data?.data ?? [], [currencies.data]);
  const base = list.find((c) => c.base)?.code ?? 'EUR';
  const others = list.filter((c) => !c.base);
  const choices = useMemo(() => {
    const enabled = new Set(list.map((c) => c.code));
    return CURRENCY_CATALOGUE.filter((c) => !enabled.has(c.code)).map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }));
  }, [list]);

  function add(event: FormEvent) {
    event.preventDefault();
    const result = currencyInputSchema.safeParse({ code, rate });
    if (!result.success) return setErrors(fieldMessages(result.error.issues, 1));
    setErrors({});
    void guard(() => create.mutateAsync({ code: result.data.code, rate: result.data.rate }));
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Devises activées</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Les devises dans lesquelles vous pouvez facturer vos clients. Le taux dit combien d’unités de chaque devise valent 1 {base}, votre
          devise de référence (
          <Link href="/settings/general" className={listStyles.link}>
            Système général
          </Link>
          ).
        </p>
        {currencies.isPending ? (
          <Spinner label="Chargement des devises" />
        ) : currencies.isError ? (
          <p role="alert">Les devises n’ont pas pu être chargées.</p>
        ) : (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>Devise</th>
                  <th style={{ width: 80 }}>Symbole</th>
                  <th style={{ width: 230 }}>Taux de change</th>
                  <th style={{ width: 110 }}>Date du taux</th>
                  <th aria-label="Actions" style={{ width: 180 }} />
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <CurrencyRow key={c.id} currency={c} base={base} />
                ))}
              </tbody>
            </table>
            {others.length === 0 && (
              <div className={listStyles.empty} role="status">
                <p className={css({ fontWeight: '600', color: 'fg.default' })}>Aucune autre devise activée</p>
                <p className={css({ fontSize: 'sm' })}>Ajoutez-en une ci-dessous pour facturer des clients dans leur monnaie.</p>
              </div>
            )}
          </div>
        )}

        <p className={settingsSection}>Ajouter une devise</p>
        <form
          onSubmit={add}
          className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '2fr 1fr auto' }, gap: '3', alignItems: 'start' })}
          noValidate
        >
          <Combobox
            label="Devise"
            placeholder="Rechercher : USD, dollar, franc…"
            options={choices}
            value={code}
            onChange={(value) => {
              setCode(value);
              return setErrors(({ code: _, ...rest }) => rest);
            }}
            emptyText="Aucune devise du catalogue ne correspond"
            error={errors.code}
          />
          <TextField
            label={`Taux pour 1 ${base}`}
            inputMode="decimal"
            placeholder="1,0850"
            value={rate}
            onChange={(e) => {
              setRate(e.target.value);
              return setErrors(({ rate: _, ...rest }) => rest);
            }}
            error={errors.rate}
          />
          <Button type="submit" loading={create.isPending} className={css({ mt: { md: '7' } })}>
            Ajouter
          </Button>
        </form>
      </section>
    </SettingsFrame>
  );
}
