import type { ReminderStep } from './schemas/reminders';

const DAY = 86_400_000;

/** Whole days from `from` to `to` (ISO dates, YYYY-MM-DD): negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

/**
 * The step to send today for an invoice `daysLate` days past its due date, or null. Only the most recent due step
 * is ever sent: after the server was down for days (or the schedule was edited), the customer gets the one reminder
 * that fits today, not a burst of every step missed. A step already done, or any later one, means nothing to send.
 * `done` holds the steps recorded as sent or being sent (a failed one is tried again).
 */
export function dueStep(steps: readonly ReminderStep[], daysLate: number, done: readonly number[]): ReminderStep | null {
  let latest: ReminderStep | null = null;
  for (const step of steps)
    if (step.enabled && step.offset_days <= daysLate && (!latest || step.offset_days > latest.offset_days)) latest = step;
  if (!latest) return null;
  const offset = latest.offset_days;
  return done.some((d) => d >= offset) ? null : latest;
}
