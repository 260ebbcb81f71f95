import { useEffect, useState } from 'react';
import { css } from '../../../../styled-system/css';
import { itemInputSchema } from '../../../shared/schemas/item';
import { parseAmount } from '../../../shared/money';
import { fieldErrorsOf, trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { confirm } from '../../stores/confirm';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { RadioGroup } from '../../components/ui/radio-group';
import { TagPicker } from '../../components/tags';
import { TaxChoice } from '../../components/tax-choice';
import { useTaxRules } from '../../lib/use-tax-rules';
import { defaultRate, sameRate } from '../../../shared/vat';
import type { ItemRow } from './types';
import { fieldLabelAt, fieldMessages } from '../../../shared/validation-messages';
import { defined } from '../../../shared/defined';
import { useCan } from '../../lib/use-can';
import { ReadOnly } from '../../components/role-gate';

interface Form {
  code: string;
  sku: string;
  name: string;
  description: string;
  unit: string;
  unit_price: string;
  kind: 'goods' | 'service';
  active: boolean;
  tax_ids: number[];
  tag_ids: number[];
}

const blank = (): Form => ({
  code: '',
  sku: '',
  name: '',
  description: '',
  unit: 'u',
  unit_price: '',
  kind: 'service',
  active: true,
  tax_ids: [],
  tag_ids: [],
});
const fromItem = (i: ItemRow): Form => ({ ...i, unit_price: String(i.unit_price).replace('.', ',') });

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });
const KINDS = [
  { value: 'service', label: 'Prestation de service' },
  { value: 'goods', label: 'Vente de biens' },
] as const;

/** A field named as the schema names it (one label per field, on the schema). */
const labelOf = (key: 'code' | 'description') => defined(fieldLabelAt(itemInputSchema, [key]), `label of ${key}`);

/** Creates or edits a catalogue item, checked with the server's schema before sending. */
export function ItemFormDialog({ open, item, onClose }: { open: boolean; item: ItemRow | null; onClose: () => void }) {
  const canWrite = useCan(item ? 'items.update' : 'items.create');
  const canArchive = useCan('items.delete');
  const [form, setForm] = useState<Form>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const utils = trpc.useUtils();
  const units = trpc.units.list.useQuery(undefined, { enabled: open, staleTime: 60_000 });
  const taxes = trpc.taxes.list.useQuery(undefined, { enabled: open, staleTime: 60_000 });
  const rules = useTaxRules(open);
  // A new item starts with the normal VAT rate, as most lines carry it (none under the franchise en base): set in the
  // same reset as the blank form when the rates are known at opening, else by the next effect when they arrive.
  // The reset runs on opening only: keyed on the rules' arrival too, it wiped what a quick user had typed meanwhile.
  const rates = taxes.data?.data ?? [];
  const normalRate = rules.ready ? defaultRate(rates, rules.vat)?.id : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: resets on opening only; late rates are the next effect's
  useEffect(() => {
    if (!open) return;
    setForm(item ? fromItem(item) : { ...blank(), tax_ids: normalRate ? [normalRate] : [] });
    setErrors({});
  }, [open, item]);
  // Rates that arrive after the opening fill a new item that has none yet, without touching what was typed.
  useEffect(() => {
    if (open && !item && normalRate) setForm((f) => (f.tax_ids.length ? f : { ...f, tax_ids: [normalRate] }));
  }, [open, item, normalRate]);

  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.items.invalidate();
    onClose();
  };
  // A refusal the server explains field by field (an unit deleted meanwhile) shows beside those fields.
  const refused = (error: unknown) => setErrors(fieldErrorsOf(error));
  const create = trpc.items.create.useMutation({ onSuccess: done, onError: refused });
  const update = trpc.items.update.useMutation({ onSuccess: done, onError: refused });
  const archive = trpc.items.delete.useMutation({ onSuccess: done });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  const set = (key: keyof Form) => (e: { target: { value: string } }) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setForm({ ...form, [key]: e.target.value });
  };

  function submit() {
    const price = parseAmount(form.unit_price);
    const result = itemInputSchema.safeParse({ ...form, unit_price: price });
    if (!result.success) {
      setErrors(fieldMessages(result.error.issues, 1));
      return;
    }
    if (item) void guard(() => update.mutateAsync({ id: item.id, data: result.data }));
    else void guard(() => create.mutateAsync(result.data));
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={item ? `Modifier ${item.name}` : 'Nouvel article'}
      width={560}
      persistent
      footer={
        <>
          {item && canArchive && (
            <Button
              variant="ghost"
              className={css({ mr: 'auto' })}
              loading={archive.isPending}
              onClick={async () => {
                if (
                  await confirm(`Archiver « ${item.name} » ? Il ne sera plus proposé dans les documents ; vous pourrez le restaurer.`, {
                    title: 'Archiver l’article',
                  })
                )
                  archive.mutate({ id: item.id });
              }}
            >
              Archiver
            </Button>
          )}
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          {canWrite && (
            <Button onClick={submit} loading={create.isPending || update.isPending}>
              Enregistrer
            </Button>
          )}
        </>
      }
    >
      <ReadOnly readOnly={!canWrite} className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        <TextField label="Désignation" value={form.name} onChange={set('name')} error={errors.name} autoFocus />
        <div className={grid}>
          <TextField label={labelOf('code')} value={form.code} onChange={set('code')} error={errors.code} />
          <TextField label="Référence (SKU)" value={form.sku} onChange={set('sku')} />
        </div>
        <TextField label={labelOf('description')} value={form.description} onChange={set('description')} />
        <div className={grid}>
          <Field label={rules.vat ? 'Prix unitaire HT' : 'Prix unitaire'} error={errors.unit_price}>
            <AmountInput value={form.unit_price} onChange={(unit_price) => setForm((f) => ({ ...f, unit_price }))} placeholder="0,00" />
          </Field>
          <Field label="Unité" error={errors.unit}>
            <Select
              value={form.unit}
              onChange={(unit) => setForm((f) => ({ ...f, unit }))}
              options={(units.data?.data ?? [{ id: 0, name: form.unit }]).map((u) => ({ value: u.name, label: u.name }))}
            />
          </Field>
        </div>
        <RadioGroup
          label="Nature"
          name="item-kind"
          options={KINDS}
          value={form.kind}
          onChange={(kind) => setForm((f) => ({ ...f, kind: kind === 'goods' ? 'goods' : 'service' }))}
        />
        <TaxChoice
          label="TVA par défaut"
          name="item-tax"
          rates={rates}
          value={rates.filter((t) => form.tax_ids.includes(t.id))}
          onChange={(next) => {
            setErrors(({ tax_ids: _, ...rest }) => rest);
            setForm({ ...form, tax_ids: rates.filter((t) => next.some((n) => sameRate(n, t))).map((t) => t.id) });
          }}
          rules={rules}
          error={errors.tax_ids}
        />
        <TagPicker kind="item" value={form.tag_ids} onChange={(tag_ids) => setForm({ ...form, tag_ids })} error={errors.tag_ids} />
        <Checkbox checked={form.active} onChange={(active) => setForm((f) => ({ ...f, active }))}>
          Proposé dans les documents (actif)
        </Checkbox>
      </ReadOnly>
    </Dialog>
  );
}
