import { useEffect, useState } from 'react';
import { css } from '../../../../styled-system/css';
import {
  APPOINTMENT_STATUS_LABELS,
  APPOINTMENT_STATUSES,
  appointmentInputSchema,
  REMINDER_CHOICES,
  type Appointment,
  type AppointmentStatus,
} from '../../../shared/schemas/appointment';
import { fieldMessages } from '../../../shared/validation-messages';
import { trpc } from '../../trpc';
import { ReadOnly } from '../../components/role-gate';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { confirm } from '../../stores/confirm';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field, Textarea } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { CustomerPicker } from '../documents/editor/customer-picker';
import { TimeField } from './time-field';
import { documentHref } from '../documents/document-meta';

/** What a new appointment starts from: the slot clicked, or today at the next hour. */
export interface AppointmentDraft {
  date: string;
  start?: string;
  end?: string;
  customer_id?: number | null;
  customer_name?: string | null;
}

interface Form {
  title: string;
  date: string;
  all_day: boolean;
  start: string;
  end: string;
  customer_id: number | null;
  customer_name: string;
  location: string;
  note: string;
  status: AppointmentStatus;
  reminder: string;
}

const fromAppointment = (a: Appointment): Form => ({
  title: a.title,
  date: a.date,
  all_day: a.all_day,
  start: a.start ?? '',
  end: a.end ?? '',
  customer_id: a.customer_id,
  customer_name: a.customer_name ?? '',
  location: a.location,
  note: a.note,
  status: a.status,
  reminder: a.reminder_minutes === null ? '' : String(a.reminder_minutes),
});
const fromDraft = (d: AppointmentDraft): Form => ({
  title: '',
  date: d.date,
  all_day: false,
  start: d.start ?? '09:00',
  end: d.end ?? '10:00',
  customer_id: d.customer_id ?? null,
  customer_name: d.customer_name ?? '',
  location: '',
  note: '',
  status: 'planned',
  reminder: '',
});

const REMINDER_LABELS: Record<(typeof REMINDER_CHOICES)[number], string> = {
  0: 'À l’heure du rendez-vous',
  15: '15 minutes avant',
  30: '30 minutes avant',
  60: '1 heure avant',
  120: '2 heures avant',
  1440: 'La veille (24 h avant)',
};

const STATUS_OPTIONS = APPOINTMENT_STATUSES.map((s) => ({ value: s, label: APPOINTMENT_STATUS_LABELS[s] }));
const REMINDER_OPTIONS = [
  { value: '', label: 'Aucun rappel' },
  ...REMINDER_CHOICES.map((m) => ({ value: String(m), label: REMINDER_LABELS[m] })),
];

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });

/** Creates or edits an appointment; checked with the server's schema first. Moving it is changing its date and hours here. */
export function AppointmentFormDialog({
  open,
  appointment,
  draft,
  onClose,
}: {
  open: boolean;
  appointment: Appointment | null;
  draft: AppointmentDraft | null;
  onClose: () => void;
}) {
  const [form, setForm] = useState<Form>(() => fromDraft({ date: '' }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const utils = trpc.useUtils();
  const guard = useActionGuard();
  useEffect(() => {
    if (!open) return;
    setForm(appointment ? fromAppointment(appointment) : fromDraft(draft ?? { date: '' }));
    setErrors({});
  }, [open, appointment, draft]);
  const create = trpc.appointments.create.useMutation();
  const update = trpc.appointments.update.useMutation();
  const remove = trpc.appointments.delete.useMutation();
  const invite = trpc.appointments.invite.useMutation();
  const canWrite = useCan(appointment ? 'appointments.update' : 'appointments.create');
  const canDelete = useCan('appointments.delete');
  const canInvite = useCan('appointments.invite');
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
    setForm((f) => ({ ...f, [key]: value }));
  };

  async function save() {
    const result = appointmentInputSchema.safeParse({
      ...form,
      // All day: the hidden hours are not sent, so a time typed before ticking it cannot refuse the save unseen.
      ...(form.all_day && { start: '', end: '' }),
      reminder_minutes: form.reminder === '' ? null : Number(form.reminder),
    });
    if (!result.success) {
      setErrors(fieldMessages(result.error.issues, 1));
      return;
    }
    const saved = appointment ? await update.mutateAsync({ id: appointment.id, data: result.data }) : await create.mutateAsync(result.data);
    showMessage(saved.messages, 200);
    void utils.appointments.invalidate();
    onClose();
  }

  async function destroy() {
    if (!appointment || !(await confirm(`« ${appointment.title} » sera supprimé.`, { title: 'Supprimer ce rendez-vous ?' }))) return;
    const answer = await remove.mutateAsync({ id: appointment.id });
    showMessage(answer.messages, 200);
    void utils.appointments.invalidate();
    onClose();
  }

  const billed = appointment?.billed_document_id != null;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={appointment ? 'Modifier le rendez-vous' : 'Nouveau rendez-vous'}
      width={640}
      persistent
      footer={
        <>
          {appointment && !billed && canDelete && (
            <Button variant="ghost" onClick={() => void guard(destroy)} className={css({ mr: 'auto', color: 'danger' })}>
              Supprimer
            </Button>
          )}
          {appointment && (
            <a
              href={`/api/appointments/${appointment.id}/ics`}
              className={css({ fontSize: 'sm', color: 'accent.default', fontWeight: '600', mr: '2' })}
            >
              Fichier .ics
            </a>
          )}
          {appointment?.customer_id && canInvite && (
            <Button
              variant="outline"
              loading={invite.isPending}
              onClick={() => void guard(async () => showMessage((await invite.mutateAsync({ id: appointment.id })).messages, 200))}
            >
              Inviter le client
            </Button>
          )}
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          {canWrite && (
            <Button onClick={() => void guard(save)} loading={create.isPending || update.isPending}>
              Enregistrer
            </Button>
          )}
        </>
      }
    >
      <ReadOnly readOnly={!canWrite} className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        {billed && (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            Facturé : la date, les heures, le client et le statut ne changent plus.{' '}
            <a
              href={documentHref({ id: appointment?.billed_document_id ?? 0, type: 'invoice' })}
              className={css({ color: 'accent.default', fontWeight: '600' })}
            >
              Voir la facture
            </a>
          </p>
        )}
        <TextField label="Titre" value={form.title} onChange={(e) => set('title', e.target.value)} error={errors.title} autoFocus />
        <div className={grid}>
          <TextField label="Date" type="date" value={form.date} onChange={(e) => set('date', e.target.value)} error={errors.date} />
          <Checkbox className={css({ alignSelf: 'end', h: '10' })} checked={form.all_day} onChange={(checked) => set('all_day', checked)}>
            Toute la journée
          </Checkbox>
          {!form.all_day && (
            <>
              <TimeField label="Début" value={form.start} onChange={(v) => set('start', v)} error={errors.start} />
              <TimeField label="Fin" value={form.end} onChange={(v) => set('end', v)} error={errors.end} />
            </>
          )}
        </div>
        <CustomerPicker
          value={form.customer_id}
          selectedName={form.customer_name}
          error={errors.customer_id}
          onChange={(c) => setForm((f) => ({ ...f, customer_id: c?.id ?? null, customer_name: c?.name ?? '' }))}
        />
        <TextField label="Lieu" value={form.location} onChange={(e) => set('location', e.target.value)} error={errors.location} />
        <div className={grid}>
          <Field label="Statut" error={errors.status}>
            <Select value={form.status} onChange={(v) => set('status', v as AppointmentStatus)} options={STATUS_OPTIONS} />
          </Field>
          <Field label="Rappel par e-mail" error={errors.reminder_minutes}>
            <Select value={form.reminder} onChange={(v) => set('reminder', v)} options={REMINDER_OPTIONS} />
          </Field>
        </div>
        <Field label="Note" error={errors.note}>
          <Textarea value={form.note} onChange={(e) => set('note', e.target.value)} />
        </Field>
      </ReadOnly>
    </Dialog>
  );
}
