import { useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import {
  defaultReminderSettings,
  MAX_REMINDER_OFFSET,
  offsetLabel,
  REMINDER_MODES,
  reminderSettingsSchema,
  type ReminderMode,
  type ReminderSettings,
  type ReminderStep,
} from '../../../shared/schemas/reminders';
import { EMAIL_PLACEHOLDERS } from '../../../shared/email-template';
import { fieldMessages } from '../../../shared/validation-messages';
import { trpc } from '../../trpc';
import { revealFirstError } from '../../lib/reveal-error';
import { showMessage } from '../../stores/snackbar';
import { useSavedForm } from '../../lib/use-saved-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Checkbox } from '../../components/ui/checkbox';
import { Field, Textarea } from '../../components/ui/field';
import { Select, type SelectOption } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsSection } from './settings-frame';

const styles = {
  note: css({ fontSize: 'sm', color: 'fg.muted' }),
  step: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
  }),
  off: css({ opacity: 0.7 }),
  legend: css({ fontWeight: '600', fontSize: 'sm', px: '1' }),
  row: css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end' }),
  days: css({ w: '24' }),
  check: css({ h: '10' }),
  error: css({ fontSize: 'xs', color: 'danger' }),
};

type Direction = 'before' | 'on' | 'after';
const DIRECTIONS: SelectOption[] = [
  { value: 'before', label: 'avant l’échéance' },
  { value: 'on', label: 'le jour de l’échéance' },
  { value: 'after', label: 'après l’échéance' },
];
const MODES: SelectOption[] = Object.entries(REMINDER_MODES).map(([value, label]) => ({ value, label }));
const directionOf = (offset: number): Direction => (offset < 0 ? 'before' : offset === 0 ? 'on' : 'after');
const offsetOf = (days: number, direction: Direction) =>
  direction === 'on' ? 0 : direction === 'before' ? -Math.abs(days) : Math.abs(days);

/** A new step: a week after the last one, with the wording of the most insistent default. */
function nextStep(steps: readonly ReminderStep[]): ReminderStep {
  const last = steps[steps.length - 1];
  const template = defaultReminderSettings().steps[2] as ReminderStep;
  return { ...template, offset_days: Math.min((last?.offset_days ?? 0) + 7, MAX_REMINDER_OFFSET) };
}

function StepEditor({
  index,
  step,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  step: ReminderStep;
  errors: Record<string, string>;
  onChange: (step: ReminderStep) => void;
  onRemove: () => void;
}) {
  const error = (key: string) => errors[`steps.${index}.${key}`];
  const direction = directionOf(step.offset_days);
  // The number typed is kept as text while it is edited: '' or '1.5' are refused on save, not rewritten under the cursor.
  const [daysText, setDaysText] = useState(String(Math.abs(step.offset_days)));
  const setDays = (text: string, dir: Direction) => {
    setDaysText(text);
    const days = Number(text);
    onChange({ ...step, offset_days: text.trim() === '' || !Number.isFinite(days) ? Number.NaN : offsetOf(days, dir) });
  };
  return (
    <fieldset className={cx(styles.step, !step.enabled && styles.off)} aria-label={`Relance ${index + 1}`}>
      <legend className={styles.legend}>
        {`Relance ${index + 1}`}
        {Number.isInteger(step.offset_days) && ` · ${offsetLabel(step.offset_days)}`}
        {!step.enabled && ' · désactivée'}
      </legend>
      <div className={styles.row}>
        {direction !== 'on' && (
          <TextField
            label="Jours"
            className={styles.days}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_REMINDER_OFFSET}
            value={daysText}
            onChange={(e) => setDays(e.target.value, direction)}
          />
        )}
        <Field label="Quand">
          <Select value={direction} options={DIRECTIONS} onChange={(value) => setDays(daysText, value as Direction)} />
        </Field>
        <Field label="Envoi">
          <Select value={step.mode} options={MODES} onChange={(value) => onChange({ ...step, mode: value as ReminderMode })} />
        </Field>
        <Checkbox className={styles.check} checked={step.enabled} onChange={(enabled) => onChange({ ...step, enabled })}>
          Active
        </Checkbox>
        <Button variant="ghost" size="sm" onClick={onRemove} className={css({ ml: 'auto' })}>
          Supprimer
        </Button>
      </div>
      {error('offset_days') && (
        <p role="alert" className={styles.error}>
          {error('offset_days')}
        </p>
      )}
      <TextField
        label="Objet"
        value={step.subject}
        error={error('subject')}
        onChange={(e) => onChange({ ...step, subject: e.target.value })}
      />
      <Field label="Message" error={error('body')}>
        <Textarea rows={6} value={step.body} onChange={(e) => onChange({ ...step, body: e.target.value })} />
      </Field>
    </fieldset>
  );
}

/** Paramètres → Relances: the steps of the payment reminders, each with its delay, its template and who sends it. */
export function ReminderSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.reminders.settings.useQuery(undefined, { staleTime: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Remounts the steps after an undo, so that the days typed show the saved values again.
  const [version, setVersion] = useState(0);
  const current = saved.data ?? null;
  const { form, setForm, dirty } = useSavedForm<ReminderSettings>(current);
  const save = trpc.reminders.saveSettings.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.reminders.settings.setData(undefined, answer.data);
      utils.reminders.list.invalidate();
      setForm(answer.data);
      setVersion((v) => v + 1);
    },
  });
  if (!form)
    return (
      <SettingsFrame>
        {saved.isError ? <p>Les relances n’ont pas pu être chargées.</p> : <Spinner label="Chargement des relances" />}
      </SettingsFrame>
    );

  const setStep = (index: number, step: ReminderStep) => {
    setErrors({});
    setForm({ steps: form.steps.map((s, i) => (i === index ? step : s)) });
  };
  function submit() {
    if (!form) return;
    const result = reminderSettingsSchema.safeParse(form);
    if (!result.success) {
      const next = fieldMessages(result.error.issues);
      setErrors(next);
      if (next.steps) showMessage(next.steps, 400);
      revealFirstError(Object.keys(next).length);
      return;
    }
    setErrors({});
    save.mutate(result.data);
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Relances de paiement</p>
        <p className={styles.note}>
          Pour chaque facture émise qui reste à payer, une relance part à chaque étape ci-dessous, une seule fois, avec la facture en PDF.
          En « Envoi automatique », Facturier l’envoie chaque matin ; « Proposée », elle attend votre clic dans Documents → Factures →
          Relances. Après une interruption, seule l’étape la plus récente est envoyée. Variables possibles :{' '}
          {EMAIL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.
        </p>
        <div key={version} className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {form.steps.length === 0 && <p className={styles.note}>Aucune relance : vos clients ne recevront aucun rappel.</p>}
          {form.steps.map((step, index) => (
            <StepEditor
              // biome-ignore lint/suspicious/noArrayIndexKey: a step has no id; its offset changes while typed
              key={index}
              index={index}
              step={step}
              errors={errors}
              onChange={(next) => setStep(index, next)}
              onRemove={() => {
                setErrors({});
                setVersion((v) => v + 1);
                setForm({ steps: form.steps.filter((_, i) => i !== index) });
              }}
            />
          ))}
        </div>
        <div>
          <Button
            variant="outline"
            onClick={() => setForm({ steps: [...form.steps, nextStep(form.steps)] })}
            disabled={form.steps.length >= 12}
          >
            Ajouter une relance
          </Button>
        </div>
        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            setVersion((v) => v + 1);
            return setErrors({});
          }}
          onSave={submit}
        />
      </section>
    </SettingsFrame>
  );
}
