import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { currencyRateInputSchema, type EnabledCurrency } from '../../../shared/schemas/currency';
import { formatExchangeRate, formatRate } from '../../../shared/exchange';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/field';
import { listStyles } from '../../components/ui/list';
import { fieldMessages } from '../../../shared/validation-messages';

const actions = css({ textAlign: 'right', whiteSpace: 'nowrap' });
const baseBadge = css({
  fontSize: 'xs',
  fontWeight: '700',
  color: 'accent.fg',
  bg: 'accent.subtle',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  ml: '2',
  whiteSpace: 'nowrap',
});

/** One enabled currency: its rate shown as a bank quote, edited in place (decimal comma welcome), or removed. */
export function CurrencyRow({ currency: c, base }: { currency: EnabledCurrency; base: string }) {
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<string>();
  const [error, setError] = useState<string>();
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.currencies.invalidate();
  };
  const update = trpc.currencies.update.useMutation({
    onSuccess: (a) => {
      done(a);
      return setDraft(undefined);
    },
  });
  const remove = trpc.currencies.delete.useMutation({ onSuccess: done });

  function save() {
    const result = currencyRateInputSchema.safeParse({ rate: draft });
    if (!result.success) return setError(fieldMessages(result.error.issues, 1).rate);
    setError(undefined);
    update.mutate({ id: c.id, data: { rate: result.data.rate } });
  }
  const cancel = () => {
    setDraft(undefined);
    return setError(undefined);
  };

  return (
    <tr>
      <td>
        <span className={css({ fontWeight: '700' })}>{c.code}</span> <span className={css({ color: 'fg.muted' })}>{c.name}</span>
        {c.base && <span className={baseBadge}>Devise de référence</span>}
      </td>
      <td>{c.symbol_native}</td>
      <td className={listStyles.number}>
        {c.base ? (
          <span className={css({ color: 'fg.muted' })}>Taux fixe : 1</span>
        ) : draft === undefined ? (
          formatExchangeRate(base, c.code, c.rate)
        ) : (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
              <span>1 {base} =</span>
              <Input
                size="sm"
                aria-label={`Taux de change ${c.code}`}
                aria-invalid={error ? true : undefined}
                inputMode="decimal"
                // autoFocus: the field opens on the user's own « Modifier » click, where typing goes next
                autoFocus
                className={css({ w: '28', textAlign: 'right' })}
                value={draft}
                onChange={(e) => {
                  setDraft(e.target.value);
                  return setError(undefined);
                }}
                onKeyDown={(e) => (e.key === 'Enter' ? save() : e.key === 'Escape' ? cancel() : undefined)}
              />
              <span>{c.code}</span>
            </div>
            {error && <span className={css({ fontSize: 'xs', color: 'danger', whiteSpace: 'normal' })}>{error}</span>}
          </div>
        )}
      </td>
      <td className={listStyles.number}>{formatDateShort(c.rate_date)}</td>
      <td className={actions}>
        {c.base ? null : draft === undefined ? (
          <>
            <Button size="sm" variant="ghost" aria-label={`Modifier le taux ${c.code}`} onClick={() => setDraft(formatRate(c.rate))}>
              Modifier
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Supprimer ${c.code}`}
              onClick={async () => {
                if (await confirm(`Supprimer la devise ${c.code} (${c.name}) ?`, { title: 'Supprimer' })) remove.mutate({ id: c.id });
              }}
            >
              Supprimer
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" loading={update.isPending} onClick={save}>
              Enregistrer
            </Button>
            <Button size="sm" variant="ghost" onClick={cancel}>
              Annuler
            </Button>
          </>
        )}
      </td>
    </tr>
  );
}
