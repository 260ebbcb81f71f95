import { useEffect, useState } from 'react';
import { css } from '../../../../styled-system/css';
import { customerInputSchema, type CustomerInput } from '../../../shared/schemas/customer';
import { frenchVatNumber, isValidSiren } from '../../../shared/identifiers';
import { countryZone } from '../../../shared/eu-countries';
import { longDefaultTermWarning } from '../../../shared/payment-terms';
import { fieldErrorsOf, trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { CurrencySelect } from '../../components/currency-select';
import { TextField } from '../../components/ui/text-field';
import { TagPicker } from '../../components/tags';
import type { CustomerRow } from './types';
import { fieldMessages } from '../../../shared/validation-messages';
import { useCan } from '../../lib/use-can';
import { ReadOnly } from '../../components/role-gate';
import { DuplicateWarning, type CustomerDuplicate } from './duplicate-warning';
import { RadioGroup } from '../../components/ui/radio-group';

type Address = { line1: string; line2: string; postal_code: string; city: string; country: string; state: string };
type Form = Omit<
  Required<
    Pick<CustomerInput, 'type' | 'name' | 'legal_name' | 'email' | 'phone' | 'mobile' | 'web' | 'business_id' | 'vat_number' | 'note'>
  >,
  never
> & {
  address: Address;
  shipping: Address;
  maturity: string;
  currency: string;
  tag_ids: number[];
};

const emptyAddress = (): Address => ({ line1: '', line2: '', postal_code: '', city: '', country: 'France', state: '' });
const blank = (): Form => ({
  type: 'company',
  name: '',
  legal_name: '',
  email: '',
  phone: '',
  mobile: '',
  web: '',
  business_id: '',
  vat_number: '',
  note: '',
  address: emptyAddress(),
  shipping: emptyAddress(),
  maturity: '30',
  currency: 'EUR',
  tag_ids: [],
});

function fromCustomer(c: CustomerRow): Form {
  return {
    ...blank(),
    ...c,
    address: { ...emptyAddress(), ...c.address },
    shipping: { ...emptyAddress(), ...c.shipping },
    maturity: String(c.maturity),
    currency: c.currency,
  };
}

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });
const CUSTOMER_TYPES = [
  { value: 'company', label: 'Entreprise' },
  { value: 'individual', label: 'Particulier' },
];
const legend = css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted', mt: '2' });

/** Creates or edits a customer; checked with the server's own schema before sending, so errors show by the field. */
export function CustomerFormDialog({
  open,
  customer,
  onClose,
  onSaved,
}: {
  open: boolean;
  customer: CustomerRow | null;
  onClose: () => void;
  onSaved: (c: CustomerRow) => void;
}) {
  const canWrite = useCan(customer ? 'customers.update' : 'customers.create');
  const [form, setForm] = useState<Form>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The look-alikes found for these name, e-mail and SIREN; shown once, then « Créer quand même » creates.
  const [duplicates, setDuplicates] = useState<{ key: string; list: CustomerDuplicate[] }>({ key: '', list: [] });
  const utils = trpc.useUtils();
  useEffect(() => {
    if (open) {
      setForm(customer ? fromCustomer(customer) : blank());
      setErrors({});
      setDuplicates({ key: '', list: [] });
    }
  }, [open, customer]);
  const lookKey = `${form.name.trim().toLowerCase()}|${form.email.trim().toLowerCase()}|${form.business_id.replace(/\D/g, '').slice(0, 9)}`;
  const shownDuplicates = duplicates.key === lookKey ? duplicates.list : [];

  const done = (answer: { messages: string; data: CustomerRow }) => {
    showMessage(answer.messages, 200);
    void utils.customers.invalidate();
    onSaved(answer.data);
  };
  // A refusal the server explains field by field shows beside those fields, not only in the snackbar.
  const refused = (error: unknown) => setErrors(fieldErrorsOf(error));
  const create = trpc.customers.create.useMutation({ onSuccess: done, onError: refused });
  const update = trpc.customers.update.useMutation({ onSuccess: done, onError: refused });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  // Editing a field clears its error: the message was about the old value.
  const clearError = (key: string) => errors[key] && setErrors(({ [key]: _, ...rest }) => rest);
  const set = (key: keyof Form) => (e: { target: { value: string } }) => {
    clearError(key);
    setForm({ ...form, [key]: e.target.value });
  };
  const setAddress = (which: 'address' | 'shipping', key: keyof Address) => (e: { target: { value: string } }) => {
    clearError(`${which}.${key}`);
    setForm({ ...form, [which]: { ...form[which], [key]: e.target.value } });
  };
  const siren = form.business_id.replace(/\D/g, '').slice(0, 9);
  const canComputeVat = form.type === 'company' && isValidSiren(siren) && form.address.country.trim().toLowerCase() === 'france';
  // Outside the EU a customer has no intra-community VAT number: its own country's tax id is accepted instead.
  const outsideEu = countryZone(form.address.country) === 'outside_eu';
  const longTerm = longDefaultTermWarning(Number(form.maturity), form.type);

  function submit() {
    const result = customerInputSchema.safeParse({ ...form, maturity: form.maturity === '' ? undefined : Number(form.maturity) });
    if (!result.success) {
      setErrors(fieldMessages(result.error.issues));
      return;
    }
    setErrors({});
    if (customer) void guard(() => update.mutateAsync({ id: customer.id, data: result.data }));
    else
      void guard(async () => {
        // Asked once for these values: the second click, after the warning, creates.
        if (duplicates.key !== lookKey) {
          const found = await utils.customers.duplicates.fetch({ name: form.name, email: form.email, business_id: form.business_id });
          setDuplicates({ key: lookKey, list: found.data });
          if (found.data.length > 0) return;
        }
        await create.mutateAsync(result.data);
      });
  }

  const addressFields = (which: 'address' | 'shipping') => (
    <div className={grid}>
      <TextField
        className={css({ gridColumn: { sm: 'span 2' } })}
        label="Adresse"
        value={form[which].line1}
        onChange={setAddress(which, 'line1')}
        error={errors[`${which}.line1`]}
      />
      <TextField
        className={css({ gridColumn: { sm: 'span 2' } })}
        label="Complément"
        value={form[which].line2}
        onChange={setAddress(which, 'line2')}
      />
      <TextField
        label="Code postal"
        value={form[which].postal_code}
        onChange={setAddress(which, 'postal_code')}
        error={errors[`${which}.postal_code`]}
      />
      <TextField label="Ville" value={form[which].city} onChange={setAddress(which, 'city')} />
      <TextField label="Pays" value={form[which].country} onChange={setAddress(which, 'country')} />
    </div>
  );

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={customer ? `Modifier ${customer.name}` : 'Nouveau client'}
      width={640}
      persistent
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          {canWrite && (
            <Button onClick={submit} loading={create.isPending || update.isPending}>
              {shownDuplicates.length > 0 ? 'Créer quand même' : 'Enregistrer'}
            </Button>
          )}
        </>
      }
    >
      <ReadOnly readOnly={!canWrite} className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        {shownDuplicates.length > 0 && <DuplicateWarning duplicates={shownDuplicates} onOpen={onClose} />}
        <RadioGroup
          label="Type de client"
          hideLabel
          name="customer-type"
          options={CUSTOMER_TYPES}
          value={form.type}
          onChange={(value) =>
            setForm((f) =>
              value === 'individual' ? { ...f, type: 'individual', business_id: '', vat_number: '' } : { ...f, type: 'company' },
            )
          }
        />
        <div className={grid}>
          <TextField label="Nom" value={form.name} onChange={set('name')} error={errors.name} autoFocus />
          {form.type === 'company' && <TextField label="Raison sociale" value={form.legal_name} onChange={set('legal_name')} />}
          <TextField label="E-mail" type="email" value={form.email} onChange={set('email')} error={errors.email} />
          <TextField label="Téléphone" value={form.phone} onChange={set('phone')} />
        </div>
        {form.type === 'company' && (
          <div className={grid}>
            <TextField
              label="SIREN ou SIRET"
              inputMode="numeric"
              value={form.business_id}
              onChange={set('business_id')}
              error={errors.business_id}
            />
            <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
              <TextField
                className={css({ flex: '1' })}
                label={outsideEu ? 'N° de TVA ou identifiant fiscal' : 'N° de TVA intracommunautaire'}
                hint={outsideEu ? 'Client hors UE : l’identifiant fiscal de son pays (facultatif)' : undefined}
                value={form.vat_number}
                onChange={set('vat_number')}
                error={errors.vat_number}
              />
              {!outsideEu && (
                <Button
                  variant="outline"
                  size="md"
                  disabled={!canComputeVat}
                  onClick={() => setForm({ ...form, vat_number: frenchVatNumber(siren) })}
                  title="Calculer depuis le SIREN"
                >
                  Calculer
                </Button>
              )}
            </div>
          </div>
        )}
        <p className={legend}>Adresse de facturation</p>
        {addressFields('address')}
        <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: '2' })}>
          <p className={legend}>Adresse de livraison</p>
          <Button variant="link" size="sm" onClick={() => setForm({ ...form, shipping: { ...form.address } })}>
            Copier l’adresse de facturation
          </Button>
        </div>
        {addressFields('shipping')}
        <div className={grid}>
          <TextField
            label="Délai de paiement (jours)"
            inputMode="numeric"
            value={form.maturity}
            onChange={set('maturity')}
            error={errors.maturity}
            hint={
              longTerm && (
                <span className={css({ color: 'warning', fontWeight: '600' })} data-testid="customer-term-warning">
                  {longTerm}
                </span>
              )
            }
          />
          <CurrencySelect value={form.currency} onChange={(currency) => setForm({ ...form, currency })} error={errors.currency} />
        </div>
        <TagPicker
          kind="customer"
          value={form.tag_ids}
          onChange={(tag_ids) => {
            clearError('tag_ids');
            return setForm({ ...form, tag_ids });
          }}
          error={errors.tag_ids}
        />
        <TextField label="Note interne" value={form.note} onChange={set('note')} />
      </ReadOnly>
    </Dialog>
  );
}
