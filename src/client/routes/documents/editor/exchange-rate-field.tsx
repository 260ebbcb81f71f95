import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { formatExchangeRate, formatRate, sameRate, type documentRate } from '../../../../shared/exchange';
import { formatDateShort } from '../../../../shared/format';
import type { EnabledCurrency } from '../../../../shared/schemas/currency';
import { clearError, editor } from '../../../stores/document-editor';
import { Field, Input } from '../../../components/ui/field';
import { TextField } from '../../../components/ui/text-field';
import { Button } from '../../../components/ui/button';
import { draft } from './form-state';

/** Why the rate can no longer be typed: kept at issue, or a credit note's, which is its invoice's. */
export type RateLock = 'issued' | 'credit' | null;

const styles = {
  field: css({ maxW: 'xl' }),
  quote: css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: '2', rowGap: '1', fontVariantNumeric: 'tabular-nums' }),
  input: css({ w: '32', textAlign: 'right' }),
  back: css({ ml: '2', fontSize: 'sm' }),
};

const LOCKED_HINTS: Record<Exclude<RateLock, null>, string> = {
  issued: 'Fixé à l’émission : les montants en euros de la TVA, du FEC et des rapports le gardent.',
  credit: 'Celui de la facture corrigée : un avoir reprend son taux.',
};

/**
 * A document in another currency than the accounting one: « 1 EUR = … USD », prefilled with the rate of Paramètres →
 * Devises and typed for this document on a draft (French decimal, checked by the shared schema on save); read-only
 * once issued or on a credit note. Emptied, or taken back, the draft follows the settings again until it is issued.
 */
export function ExchangeRateField({
  accounting,
  currency,
  settings,
  rate,
  lock,
  readOnly,
}: {
  accounting: string;
  currency: string;
  /** The currency as Paramètres → Devises holds it (absent when it is no longer enabled). */
  settings: EnabledCurrency | undefined;
  rate: ReturnType<typeof documentRate>;
  lock: RateLock;
  readOnly: boolean;
}) {
  const snap = useSnapshot(editor, { sync: true });
  const typed = snap.form?.exchange_rate;
  const settingsText = settings
    ? `Paramètres → Devises : ${formatExchangeRate(accounting, currency, settings.rate)} au ${formatDateShort(settings.rate_date)}`
    : '';

  if (lock || readOnly) {
    const hint = lock ? LOCKED_HINTS[lock] : rate.source === 'own' ? 'Saisi pour ce document.' : settingsText;
    return (
      <TextField
        className={styles.field}
        label="Taux de change"
        value={rate.rate ? formatExchangeRate(accounting, currency, rate.rate) : 'Aucun taux'}
        readOnly
        hint={hint}
        data-testid="exchange-rate"
      />
    );
  }

  const shown = typed === null || typed === undefined ? (settings ? formatRate(settings.rate) : '') : String(typed);
  const error = snap.errors.exchange_rate ?? rate.error;
  const asOf = settings ? `${formatRate(settings.rate)} au ${formatDateShort(settings.rate_date)}` : '';
  const helper =
    rate.source === 'own'
      ? `Saisi pour ce document${settings ? ` (Paramètres → Devises : ${asOf})` : ''}`
      : settings
        ? `Celui de Paramètres → Devises au ${formatDateShort(settings.rate_date)}, à modifier pour ce document si besoin`
        : 'Aucun taux pour cette devise dans Paramètres → Devises : saisissez celui de ce document';
  const differs = rate.source === 'own' && settings !== undefined && !(rate.rate && sameRate(rate.rate, settings.rate));
  return (
    <Field className={styles.field} label="Taux de change" error={error} helper={helper}>
      <span className={styles.quote}>
        <span>1 {accounting} =</span>
        <Input
          className={styles.input}
          inputMode="decimal"
          autoComplete="off"
          value={shown}
          onChange={(e) => {
            clearError('exchange_rate');
            draft().exchange_rate = e.target.value;
          }}
        />
        <span>{currency}</span>
        {differs && (
          <Button
            variant="link"
            className={styles.back}
            onClick={() => {
              clearError('exchange_rate');
              draft().exchange_rate = null;
            }}
          >
            Reprendre le taux des paramètres
          </Button>
        )}
      </span>
    </Field>
  );
}
