import type { ReminderStep } from './schemas/reminders';

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
