import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { clearError, editor } from '../../../stores/document-editor';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/field';
import { AmountInput } from '../../../components/ui/amount-input';
import { Select } from '../../../components/ui/select';
import { CloseIcon } from '../../../components/icons';
import { draft, shownAmount, typedNumber, type DocumentDraft } from './form-state';
import { VatExemptionField } from './vat-exemption-field';
import { FRANCHISE_MENTION, followsMainRate, sameRate, type TaxRate } from '../../../../shared/vat';

/** The form's two lists, made on first use (the schema defaults them to empty). */
function additionalInfo() {
  const form = draft();
  form.additional_info ??= [];
  return form.additional_info;
}
function depositRequest() {
  const form = draft();
  form.deposit_request ??= [];
  return form.deposit_request;
}

const styles = {
  grid: css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '3' }),
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr auto', gap: '2', alignItems: 'center' }),
  legend: css({ fontSize: 'sm', fontWeight: '600', mb: '1' }),
};

const DISCOUNT_TYPES = [
  { value: 'percent', label: '%' },
  { value: 'amount', label: 'Montant' },
] as const;

const MAIN = 'main';
const NONE = 'none';
const keyOf = (t: TaxRate) => `${t.title}\u0000${t.rate}`;

/** The VAT of shipping (CGI art. 267): apportioned to the lines' rates by default, one chosen rate, or none. */
function ShippingTax({ taxes, readOnly }: { taxes: readonly TaxRate[]; readOnly?: boolean }) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form as DocumentDraft | null;
  if (!form) return null;
  const chosen = form.shipping_tax ? { title: form.shipping_tax.title, rate: typedNumber(form.shipping_tax.rate) } : null;
  const options = chosen && !taxes.some((t) => sameRate(t, chosen)) ? [...taxes, chosen] : taxes;
  const value = followsMainRate(form) ? MAIN : chosen ? keyOf(chosen) : NONE;
  const choices = [
    { value: MAIN, label: 'Taux des lignes, au prorata de leurs bases' },
    ...options.map((t) => ({ value: keyOf(t), label: t.title })),
    { value: NONE, label: 'Aucune TVA' },
  ];
  return (
    <Field label="TVA des frais de port" disabled={readOnly}>
      <Select
        value={value}
        options={choices}
        disabled={readOnly}
        onChange={(picked) => {
          const target = draft();
          const rate = options.find((t) => keyOf(t) === picked);
          target.shipping_tax_auto = picked === MAIN;
          target.shipping_tax = picked === MAIN ? undefined : rate ? { title: rate.title, rate: rate.rate } : null;
        }}
      />
    </Field>
  );
}

type TextKey = 'header' | 'footer' | 'terms' | 'note' | 'condition' | 'shipping_details';

/** The document's discount, shipping, texts (prefilled from the template per type) and its two lists. */
export function ExtrasSection({
  readOnly,
  taxes,
  vat,
}: {
  readOnly?: boolean;
  /** The organisation's rates, offered for shipping. */
  taxes: readonly TaxRate[];
  /** False under the franchise en base: shipping carries no VAT and no rate is offered. */
  vat: boolean;
}) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form as DocumentDraft | null;
  if (!form) return null;
  const write = (key: keyof DocumentDraft & string) => (value: string) => {
    clearError(key);
    (editor.form as unknown as Record<string, unknown>)[key] = value;
  };
  const area = (key: TextKey, label: string, placeholder?: string) => (
    <Field label={label} readOnly={readOnly}>
      <Textarea value={form[key]} onChange={(e) => write(key)(e.target.value)} placeholder={placeholder} />
    </Field>
  );
  const error = (key: string) => snap.errors[key];
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={styles.grid}>
        <div className={css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' })}>
          <Field label="Remise globale" error={error('discount_value')} readOnly={readOnly}>
            <Input
              inputMode="decimal"
              value={shownAmount(form.discount_value, true)}
              onChange={(e) => write('discount_value')(e.target.value)}
              placeholder="0"
            />
          </Field>
          <Field label="Type" disabled={readOnly}>
            <Select
              value={form.discount_type ?? 'percent'}
              options={DISCOUNT_TYPES}
              onChange={write('discount_type')}
              disabled={readOnly}
            />
          </Field>
        </div>
        <div className={css({ display: 'grid', gridTemplateColumns: vat ? '1fr 1fr' : '1fr', gap: '2', alignItems: 'start' })}>
          <Field
            label={vat ? 'Frais de port HT' : 'Frais de port'}
            error={error('shipping')}
            readOnly={readOnly}
            helper={vat ? 'Hors taxe, même en prix TTC ; TVA au taux choisi (CGI art. 267).' : FRANCHISE_MENTION}
          >
            {/* Tidied once typed, like every amount: '12.5' reads back as '12,50'. */}
            <AmountInput value={shownAmount(form.shipping, true)} onChange={write('shipping')} placeholder="0,00" />
          </Field>
          {vat && <ShippingTax taxes={taxes} readOnly={readOnly} />}
        </div>
      </div>
      {/* Under the franchise the one legal basis is art. 293 B, printed on its own. */}
      {vat && <VatExemptionField readOnly={readOnly} />}
      <div className={styles.grid}>
        {area('header', 'En-tête')}
        {area('footer', 'Pied de page')}
        {area('terms', 'Mentions et références', 'Conditions générales de vente, références…')}
        {area('note', 'Note', 'Visible sur le document')}
        {area('shipping_details', 'Détails de livraison')}
      </div>
      <KeyValueList readOnly={readOnly} />
      <DepositRequests readOnly={readOnly} />
    </div>
  );
}

function KeyValueList({ readOnly }: { readOnly?: boolean }) {
  const snap = useSnapshot(editor, { sync: true });
  const list = snap.form?.additional_info ?? [];
  return (
    <fieldset>
      <legend className={styles.legend}>Informations complémentaires</legend>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        {list.map((kv, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows without ids, only appended or removed with their controlled inputs (values come from the store)
          <div key={i} className={styles.pair}>
            <Input
              size="inline"
              aria-label={`Intitulé ${i + 1}`}
              placeholder="Intitulé (ex. Réf. chantier)"
              value={kv.key}
              readOnly={readOnly}
              onChange={(e) => {
                const row = additionalInfo()[i];
                if (row) row.key = e.target.value;
              }}
            />
            <Input
              size="inline"
              aria-label={`Valeur ${i + 1}`}
              placeholder="Valeur"
              value={kv.value}
              readOnly={readOnly}
              onChange={(e) => {
                const row = additionalInfo()[i];
                if (row) row.value = e.target.value;
              }}
            />
            {!readOnly && (
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Retirer l’information ${i + 1}`}
                onClick={() => additionalInfo().splice(i, 1)}
              >
                <CloseIcon />
              </Button>
            )}
          </div>
        ))}
        {!readOnly && (
          <div>
            <Button variant="ghost" size="sm" onClick={() => additionalInfo().push({ key: '', value: '' })}>
              Ajouter une information
            </Button>
          </div>
        )}
      </div>
    </fieldset>
  );
}

function DepositRequests({ readOnly }: { readOnly?: boolean }) {
  const snap = useSnapshot(editor, { sync: true });
  const list = snap.form?.deposit_request ?? [];
  return (
    <fieldset>
      <legend className={styles.legend}>Acomptes demandés</legend>
      <p className={css({ fontSize: 'xs', color: 'fg.muted', mb: '2' })}>
        Affichés sur le document ; une fois l’acompte reçu, émettez une facture d’acompte depuis le devis ou la commande.
      </p>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        {list.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows without ids, only appended or removed with their controlled inputs (values come from the store)
          <div key={i} className={styles.pair}>
            <Input
              size="inline"
              aria-label={`Libellé de l’acompte ${i + 1}`}
              value={d.description}
              readOnly={readOnly}
              onChange={(e) => {
                const row = depositRequest()[i];
                if (row) row.description = e.target.value;
              }}
            />
            <AmountInput
              size="inline"
              aria-label={`Montant de l’acompte ${i + 1}`}
              placeholder="0,00"
              value={shownAmount(d.amount, true)}
              readOnly={readOnly}
              onChange={(value) => {
                const row = depositRequest()[i];
                if (row) row.amount = value;
              }}
            />
            {!readOnly && (
              <Button variant="ghost" size="icon" aria-label={`Retirer l’acompte ${i + 1}`} onClick={() => depositRequest().splice(i, 1)}>
                <CloseIcon />
              </Button>
            )}
          </div>
        ))}
        {!readOnly && (
          <div>
            <Button variant="ghost" size="sm" onClick={() => depositRequest().push({ description: 'Acompte', amount: '' })}>
              Ajouter un acompte demandé
            </Button>
          </div>
        )}
      </div>
    </fieldset>
  );
}
