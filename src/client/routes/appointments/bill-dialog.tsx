import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { add } from '../../../shared/money';
import { billedAmount, billedHours, durationLabel, durationSeconds } from '../../../shared/appointment-billing';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { CustomerPicker } from '../documents/editor/customer-picker';
import { documentHref } from '../documents/document-meta';

/** « Facturer »: a customer's done, unbilled appointments onto a draft invoice at the hourly rate of a chosen item. */
export function BillDialog({
  open,
  onClose,
  customer,
}: {
  open: boolean;
  onClose: () => void;
  customer?: { id: number; name: string } | null;
}) {
  const money = useMoney();
  const [, navigate] = useLocation();
  const guard = useActionGuard();
  const utils = trpc.useUtils();
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(customer ?? null);
  const [itemId, setItemId] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  useEffect(() => {
    if (open) setPicked(customer ?? null);
  }, [open, customer]);
  const billable = trpc.appointments.list.useQuery({ customer_id: picked?.id, billable: true }, { enabled: open && Boolean(picked) });
  const items = trpc.items.list.useQuery({ per_page: 100, kind: 'service', active: 'active' }, { enabled: open });
  const rows = billable.data?.data ?? [];
  useEffect(() => setChosen(new Set((billable.data?.data ?? []).map((a) => a.id))), [billable.data]);
  const item = items.data?.data.find((i) => String(i.id) === itemId);
  const selected = rows.filter((a) => chosen.has(a.id));
  const bill = trpc.appointments.bill.useMutation();

  async function submit() {
    if (!picked || !item) return;
    const answer = await bill.mutateAsync({ customer_id: picked.id, item_id: item.id, appointment_ids: selected.map((a) => a.id) });
    showMessage(answer.messages, 200);
    void utils.appointments.invalidate();
    onClose();
    navigate(documentHref({ id: answer.data.id, type: 'invoice' }));
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Facturer des rendez-vous"
      width={640}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button disabled={!item || selected.length === 0} loading={bill.isPending} onClick={() => void guard(submit)}>
            Créer la facture brouillon
          </Button>
        </>
      }
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        <CustomerPicker
          value={picked?.id ?? null}
          selectedName={picked?.name}
          onChange={(c) => setPicked(c ? { id: c.id, name: c.name } : null)}
        />
        <Field label="Article (son prix est le taux horaire)">
          <Select
            value={itemId}
            onChange={setItemId}
            placeholder="Choisir un article…"
            options={(items.data?.data ?? []).map((i) => ({
              value: String(i.id),
              label: `${i.name} — ${money(i.unit_price)} / ${i.unit}`,
            }))}
          />
        </Field>
        {picked && rows.length === 0 && !billable.isPending && (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Aucun rendez-vous effectué à facturer pour ce client.</p>
        )}
        {rows.map((a) => (
          <div
            key={a.id}
            className={css({ display: 'grid', gridTemplateColumns: '1fr auto', gap: '2', alignItems: 'center', fontSize: 'sm' })}
          >
            <Checkbox
              checked={chosen.has(a.id)}
              onChange={(checked) => {
                const next = new Set(chosen);
                if (checked) next.add(a.id);
                else next.delete(a.id);
                setChosen(next);
              }}
            >
              {formatDateShort(a.date)}, {a.start} – {a.end} · {a.title}
            </Checkbox>
            <span className={css({ fontVariantNumeric: 'tabular-nums', color: 'fg.muted' })}>
              {durationLabel(durationSeconds(a))}
              {item ? ` · ${money(billedAmount(a, item.unit_price))}` : ''}
            </span>
          </div>
        ))}
        {item && selected.length > 0 && (
          <p className={css({ fontSize: 'sm', fontWeight: '600', textAlign: 'right' })}>
            {String(add(...selected.map((a) => billedHours(a)))).replace('.', ',')} h —{' '}
            {money(add(...selected.map((a) => billedAmount(a, item.unit_price))))} HT
          </p>
        )}
      </div>
    </Dialog>
  );
}
