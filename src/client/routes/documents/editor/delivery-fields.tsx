import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import type { Address } from '../../../../shared/schemas/customer';
import { clearError, editor } from '../../../stores/document-editor';
import { TextField } from '../../../components/ui/text-field';
import { RadioGroup } from '../../../components/ui/radio-group';
import { trpc } from '../../../trpc';
import { draft } from './form-state';

const styles = {
  grid: css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(4, 1fr)' }, gap: '3', alignItems: 'start' }),
  wide: css({ gridColumn: { md: 'span 2' } }),
  choices: css({ mb: '3' }),
};

const SAME = 'same';
const OTHER = 'other';
const CHOICES = [
  { value: SAME, label: 'Identique à l’adresse de facturation' },
  { value: OTHER, label: 'Autre adresse de livraison' },
] as const;

const BLANK: Address = { line1: '', line2: '', postal_code: '', city: '', state: '', country: 'France' };
const FIELDS = [
  { key: 'line1', label: 'Adresse', wide: true },
  { key: 'line2', label: 'Complément d’adresse', wide: true },
  { key: 'postal_code', label: 'Code postal' },
  { key: 'city', label: 'Ville' },
  { key: 'country', label: 'Pays', wide: true },
] as const;

/**
 * The buyer's references a document carries (C. com. L441-9): their purchase-order number, and where the goods or
 * services go when not to the billing address (a 2026 e-invoicing mention). Both are printed on the document.
 */
export function DeliveryFields({ readOnly }: { readOnly?: boolean }) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form;
  const customerId = form?.customer_id ?? 0;
  // The customer's own shipping address: what "Autre adresse" starts from.
  const customer = trpc.customers.get.useQuery({ id: customerId }, { enabled: customerId > 0 && !readOnly, staleTime: 60_000 });
  if (!form) return null;
  const error = (key: string) => snap.errors[key];
  const delivery = form.delivery_address ?? null;
  const elsewhere = delivery !== null;

  const choose = (other: boolean) => {
    clearError('delivery_address');
    const f = draft();
    if (!other) f.delivery_address = null;
    else if (!f.delivery_address) {
      const shipping = customer.data?.shipping;
      f.delivery_address = shipping?.line1 ? { ...shipping } : { ...BLANK };
    }
  };
  const setField = (key: keyof Address) => (event: { target: { value: string } }) => {
    clearError(`delivery_address.${key}`);
    const f = draft();
    f.delivery_address = { ...BLANK, ...f.delivery_address, [key]: event.target.value };
  };

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={styles.grid}>
        <TextField
          className={styles.wide}
          label="N° de bon de commande"
          placeholder="Ex. BC-2026-117"
          hint="Celui du client, imprimé sur le document : « Votre commande n° … »"
          maxLength={60}
          value={form.purchase_order ?? ''}
          readOnly={readOnly}
          error={error('purchase_order')}
          onChange={(e) => {
            clearError('purchase_order');
            draft().purchase_order = e.target.value;
          }}
        />
      </div>
      <div>
        <RadioGroup
          className={styles.choices}
          label="Adresse de livraison"
          name="delivery"
          options={CHOICES}
          value={elsewhere ? OTHER : SAME}
          disabled={readOnly}
          onChange={(value) => choose(value === OTHER)}
        />
        {delivery && (
          <div className={styles.grid}>
            {FIELDS.map((field) => (
              <TextField
                key={field.key}
                className={'wide' in field ? styles.wide : undefined}
                label={field.label}
                aria-label={`Livraison : ${field.label}`}
                value={delivery[field.key] ?? ''}
                readOnly={readOnly}
                error={error(`delivery_address.${field.key}`)}
                onChange={setField(field.key)}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
