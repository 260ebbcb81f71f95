import { css } from '../../../../styled-system/css';
import { formatRate } from '../../../shared/typography';
import { add, div, mul, parseAmount, toDecimalString } from '../../../shared/money';
import { commaToDot } from '../../../shared/input';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';

/** `key` tells React which row is which when one is removed; the schema ignores it. */
export type VatRow = { key: number; rate: string; amount: string; deductible: boolean };
let rowKeys = 0;
export const vatRow = (rate: string, amount = '', deductible = true): VatRow => ({ key: ++rowKeys, rate, amount, deductible });

/** The French VAT rates (CGI art. 278 to 281 nonies), the standard one first. */
const RATES = ['20', '10', '5.5', '2.1', '0'];

/** The rows as the expense schemas read them: rows left empty are no VAT. */
export const vatInput = (rows: VatRow[]) =>
  rows.filter((v) => v.amount.trim() !== '').map((v) => ({ rate: commaToDot(v.rate), amount: v.amount, deductible: v.deductible }));

/** The VAT a TTC amount holds at a rate: TTC × rate ÷ (100 + rate), to the cent. */
function vatIn(ttc: string, rate: string): string {
  // The TTC as the amount field shows it once tidied ('1 200,00', narrow spaces): read the French way.
  const amount = parseAmount(ttc) ?? Number.NaN;
  const r = Number(rate);
  if (!Number.isFinite(amount) || amount <= 0 || !Number.isFinite(r)) return '';
  return toDecimalString(div(mul(amount, r), add(100, r)), 2).replace('.', ',');
}

/**
 * The VAT of an expense or a recurring expense, one row per rate: the French rates offered, a rate read from a
 * supplier's e-invoice (a foreign 21 %) kept as it is, the amount typed or computed from the TTC, deductible or not.
 */
export function VatRowsField({
  rows,
  onChange,
  ttc,
  error,
}: {
  rows: VatRow[];
  onChange: (rows: VatRow[]) => void;
  /** The TTC amount as typed, for « Calculer ». */
  ttc: string;
  error?: string;
}) {
  const setRow = (i: number, patch: Partial<VatRow>) => onChange(rows.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <>
      {rows.map((v, i) => (
        <div
          key={v.key}
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: '7rem 1fr', sm: '7rem 1fr auto auto' },
            gap: '2',
            alignItems: 'end',
          })}
        >
          <Field label="Taux">
            <Select
              value={v.rate}
              onChange={(rate) => setRow(i, { rate })}
              options={(RATES.includes(v.rate) ? RATES : [v.rate, ...RATES]).map((r) => ({
                value: r,
                label: formatRate(r),
              }))}
            />
          </Field>
          <div className={css({ display: 'flex', gap: '2', alignItems: 'end' })}>
            <Field label="Montant de TVA" className={css({ flex: '1' })}>
              <AmountInput placeholder="0,00" value={v.amount} onChange={(amount) => setRow(i, { amount })} />
            </Field>
            <Button
              variant="outline"
              size="md"
              title="Calculer depuis le montant TTC"
              onClick={() => setRow(i, { amount: vatIn(ttc, v.rate) })}
            >
              Calculer
            </Button>
          </div>
          <Checkbox className={css({ h: '10' })} checked={v.deductible} onChange={(deductible) => setRow(i, { deductible })}>
            Déductible
          </Checkbox>
          <Button variant="ghost" size="sm" aria-label="Retirer ce taux" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            ✕
          </Button>
        </div>
      ))}
      {error && <span className={css({ fontSize: 'xs', color: 'danger' })}>{error}</span>}
      <div>
        <Button variant="link" size="sm" onClick={() => onChange([...rows, vatRow(rows.length === 0 ? '20' : '10')])}>
          + Ajouter un taux
        </Button>
      </div>
    </>
  );
}
