import { useId, useState } from 'react';
import { css } from '../../../../../styled-system/css';
import { formatMoney } from '../../../../shared/format';
import { sub, toNumber } from '../../../../shared/money';
import { convertAmount, formatExchangeRate, vatInBase } from '../../../../shared/exchange';
import { formatRate } from '../../../../shared/typography';
import type { StoredTotals } from '../../../../shared/schemas/document-model';
import type { CurrencyFormat } from '../../../../shared/schemas/settings';

const styles = {
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '1.5',
    fontSize: 'sm',
  }),
  row: css({
    display: 'flex',
    justifyContent: 'space-between',
    gap: '3',
    '& span:last-child': { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  }),
  total: css({ fontWeight: '700', fontSize: 'md', borderTopWidth: '1px', borderColor: 'border.default', pt: '2', mt: '1' }),
  due: css({ fontWeight: '700', color: 'accent.fg' }),
  toggle: css({
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: '3',
    w: 'full',
    fontWeight: '700',
    fontSize: 'md',
    cursor: 'pointer',
    textAlign: 'left',
    borderRadius: 'md',
    _focusVisible: { outline: '2px solid token(colors.accent.default)', outlineOffset: '2px' },
  }),
  chevron: css({
    fontSize: 'sm',
    color: 'fg.muted',
    transition: 'transform 0.15s',
    '[aria-expanded=true] &': { transform: 'rotate(180deg)' },
  }),
  hint: css({ fontSize: 'xs', color: 'fg.muted', fontWeight: '500' }),
  inBase: css({ borderTopWidth: '1px', borderStyle: 'dashed', borderColor: 'border.default', pt: '2', mt: '1' }),
  rate: css({ fontSize: 'xs', color: 'fg.muted' }),
};

/** Live totals of what a save would write (shared/document-save.ts, the function the server's save runs) (subtotal, discount, each tax, shipping, total, deposits, due). */
export function TotalsCard({
  totals,
  currencyFormat,
  currency,
  credited = 0,
  showTotal = true,
  vat = true,
  collapsible = false,
  inBase = null,
}: {
  totals: StoredTotals;
  currencyFormat: CurrencyFormat;
  currency: string;
  credited?: number;
  showTotal?: boolean;
  /** False under the franchise en base: no VAT rows, no HT/TTC wording. */
  vat?: boolean;
  /** On a phone the card folds to its total, with a button that unfolds the detail. */
  collapsible?: boolean;
  /** Another currency than the accounting one: the rate it is converted at (the typed one, else the settings'). */
  inBase?: { currency: string; rate: string } | null;
}) {
  const money = (n: number) => formatMoney(n, currencyFormat, currency);
  const due = toNumber(sub(totals.amount_due, credited));
  const [open, setOpen] = useState(false);
  const detailId = useId();
  const headline = showTotal ? (vat ? 'Total TTC' : 'Total') : vat ? 'Sous-total HT' : 'Sous-total';
  if (collapsible && !open) {
    return (
      <section className={styles.card} aria-label="Totaux">
        <button type="button" className={styles.toggle} aria-expanded={false} aria-controls={detailId} onClick={() => setOpen(true)}>
          <span>
            {headline}
            <span className={styles.hint}> · voir le détail</span>
          </span>
          <span className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
            <span
              data-total={showTotal ? 'total' : 'subtotal'}
              className={css({ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' })}
            >
              {money(showTotal ? totals.total : totals.subtotal)}
            </span>
            <span className={styles.chevron} aria-hidden="true">
              ▾
            </span>
          </span>
        </button>
      </section>
    );
  }
  return (
    <section className={styles.card} aria-label="Totaux" id={detailId}>
      {collapsible && (
        <button type="button" className={styles.toggle} aria-expanded={true} aria-controls={detailId} onClick={() => setOpen(false)}>
          <span>
            Détail des totaux<span className={styles.hint}> · replier</span>
          </span>
          <span className={styles.chevron} aria-hidden="true">
            ▾
          </span>
        </button>
      )}
      <div className={styles.row}>
        <span>{vat ? 'Sous-total HT' : 'Sous-total'}</span>
        <span data-total="subtotal">{money(totals.subtotal)}</span>
      </div>
      {totals.discount !== 0 && (
        <div className={styles.row}>
          <span>Remise</span>
          <span data-total="discount">−{money(totals.discount)}</span>
        </div>
      )}
      {totals.discount !== 0 && (
        <div className={styles.row}>
          <span>{vat ? 'Total HT' : 'Total après remise'}</span>
          <span data-total="net">{money(toNumber(sub(totals.subtotal, totals.discount)))}</span>
        </div>
      )}
      {/* Shipping before the VAT rows: it is part of their base (CGI art. 267). */}
      {totals.shipping !== 0 && (
        <div className={styles.row}>
          <span>{vat ? 'Frais de port HT' : 'Frais de port'}</span>
          <span data-total="shipping">{money(totals.shipping)}</span>
        </div>
      )}
      {(vat ? totals.taxes : []).map((t) => (
        <div key={`${t.title}-${t.rate}`} className={styles.row}>
          <span>
            {t.title} <span className={css({ color: 'fg.muted' })}>sur {money(t.taxable_amount)}</span>
          </span>
          <span data-total={`tax-${t.rate}`}>{money(t.amount)}</span>
        </div>
      ))}
      {vat && totals.tax !== 0 && (
        <div className={styles.row}>
          <span>Total TVA</span>
          <span data-total="tax">{money(totals.tax)}</span>
        </div>
      )}
      {showTotal && (
        <div className={`${styles.row} ${styles.total}`}>
          <span>{vat ? 'Total TTC' : 'Total'}</span>
          <span data-total="total">{money(totals.total)}</span>
        </div>
      )}
      {showTotal && inBase && <InBaseRows totals={totals} currency={currency} inBase={inBase} currencyFormat={currencyFormat} vat={vat} />}
      {totals.deposits !== 0 && (
        <div className={styles.row}>
          <span>Acomptes facturés</span>
          <span data-total="deposits">−{money(totals.deposits)}</span>
        </div>
      )}
      {credited !== 0 && (
        <div className={styles.row}>
          <span>Avoirs</span>
          <span data-total="credited">−{money(credited)}</span>
        </div>
      )}
      {totals.paid !== 0 && (
        <div className={styles.row}>
          <span>Déjà payé</span>
          <span data-total="paid">−{money(totals.paid)}</span>
        </div>
      )}
      {showTotal && (totals.deposits !== 0 || totals.paid !== 0 || credited !== 0) && (
        <div className={`${styles.row} ${styles.due}`}>
          <span>Reste à payer</span>
          <span data-total="due">{money(due)}</span>
        </div>
      )}
    </section>
  );
}

/**
 * The totals in the accounting currency at the document's rate, as the PDF prints its VAT (directive 2006/112/CE art.
 * 230: each rate converted and rounded on its own) and as the FEC and the reports will count it once issued.
 */
function InBaseRows({
  totals,
  currency,
  inBase,
  currencyFormat,
  vat,
}: {
  totals: StoredTotals;
  currency: string;
  inBase: { currency: string; rate: string };
  currencyFormat: CurrencyFormat;
  vat: boolean;
}) {
  const money = (n: number | ReturnType<typeof convertAmount>) => formatMoney(n, currencyFormat, inBase.currency);
  const from = { code: currency, rate: inBase.rate };
  const to = { code: inBase.currency, rate: '1' };
  const converted = vatInBase(totals.taxes, from, inBase.currency);
  return (
    <div className={styles.inBase} data-testid="totals-in-base">
      <div className={`${styles.row} ${styles.rate}`}>
        <span>En {inBase.currency}</span>
        <span data-total="exchange-rate">{formatExchangeRate(inBase.currency, currency, inBase.rate)}</span>
      </div>
      {vat &&
        converted.taxes.length > 1 &&
        converted.taxes.map((t) => (
          <div key={t.rate} className={styles.row}>
            <span>
              TVA {formatRate(t.rate)} en {inBase.currency}
            </span>
            <span data-total={`base-tax-${t.rate}`}>{money(t.amount)}</span>
          </div>
        ))}
      {vat && converted.taxes.length > 0 && (
        <div className={styles.row}>
          <span>Total TVA en {inBase.currency}</span>
          <span data-total="base-tax">{money(converted.total)}</span>
        </div>
      )}
      <div className={styles.row}>
        <span>
          {vat ? 'Total TTC' : 'Total'} en {inBase.currency}
        </span>
        <span data-total="base-total">{money(convertAmount(totals.total, from, to))}</span>
      </div>
    </div>
  );
}
