import type { ReminderStep } from './schemas/reminders';
import { plural } from './french';

/** A reminder's states as the screens name them (the schemas read the same list). */
export const REMINDER_STATUSES = { sending: 'Envoi en cours', sent: 'Envoyée', failed: 'Échec' } as const;

/** « 3 jours avant l’échéance », « le jour de l’échéance », « 15 jours après l’échéance ». */
export function offsetLabel(offset: number): string {
  if (offset === 0) return 'le jour de l’échéance';
  const days = Math.abs(offset);
  return `${plural(days, 'jour')} ${offset < 0 ? 'avant' : 'après'} l’échéance`;
}

const DAY = 86_400_000;

/** Whole days from `from` to `to` (ISO dates, YYYY-MM-DD): negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

/** A step planned before the due date announces it: once that date is reached it has nothing left to say. */
const applies = (step: ReminderStep, daysLate: number) => step.enabled && (step.offset_days >= 0 || daysLate < 0);

/**
 * The step to send today for an invoice `daysLate` days past its due date, or null. Only the most recent due step
 * is ever sent: after the server was down for days (or the schedule was edited), the customer gets the one reminder
 * that fits today, not a burst of every step missed. A step already done, or any later one, means nothing to send.
 * `done` holds the steps recorded as sent or being sent (a failed one is tried again).
 */
export function dueStep(steps: readonly ReminderStep[], daysLate: number, done: readonly number[]): ReminderStep | null {
  let latest: ReminderStep | null = null;
  for (const step of steps)
    if (applies(step, daysLate) && step.offset_days <= daysLate && (!latest || step.offset_days > latest.offset_days)) latest = step;
  if (!latest) return null;
  const offset = latest.offset_days;
  return done.some((d) => d >= offset) ? null : latest;
}

/** The next step to come after today for an invoice `daysLate` days past due, or null (none left, or a later one done). */
export function nextStep(steps: readonly ReminderStep[], daysLate: number, done: readonly number[]): ReminderStep | null {
  const next = steps
    .filter((step) => step.enabled && step.offset_days > daysLate)
    .sort((a, b) => a.offset_days - b.offset_days)
    .find((step) => !done.some((d) => d >= step.offset_days));
  return next ?? null;
}

/** The days-late range over which `step` is the one `dueStep` weighs; `toDaysLate` null: no end. */
export interface DueStepSpan {
  step: ReminderStep;
  fromDaysLate: number;
  toDaysLate: number | null;
}

/**
 * `dueStep` cut into ranges, for a database to count and page by due date: over each span its step is the latest
 * that applies, and it is due unless a step at least as late is done. Steps before the due date stop at the eve of
 * it (they announce it); those from it on run until the next one. Ranges do not overlap.
 */
export function dueStepSpans(steps: readonly ReminderStep[]): DueStepSpan[] {
  const on: ReminderStep[] = [];
  // A stable sort, and the first of a tie kept, as dueStep keeps it.
  for (const step of [...steps].filter((s) => s.enabled).sort((a, b) => a.offset_days - b.offset_days))
    if (on.at(-1)?.offset_days !== step.offset_days) on.push(step);
  const spansOf = (group: ReminderStep[], end: number | null) =>
    group.map((step, i) => {
      const following = group[i + 1];
      return { step, fromDaysLate: step.offset_days, toDaysLate: following ? following.offset_days - 1 : end };
    });
  return [
    ...spansOf(
      on.filter((s) => s.offset_days < 0),
      -1,
    ),
    ...spansOf(
      on.filter((s) => s.offset_days >= 0),
      null,
    ),
  ];
}
