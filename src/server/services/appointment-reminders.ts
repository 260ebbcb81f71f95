import type { Db } from '../db/connection';
import type { JobDeps } from '../scheduler/scheduler';
import { formatDateLong } from '../../shared/format';
import { appointmentsWithReminders, claimReminder, releaseReminder, type StoredAppointment } from '../db/queries/appointments';
import { getUserContact } from '../db/queries/users';
import { organizationMailer } from './email-settings';
import { parisToUtc } from './paris-time';
import { logger } from '../logger';
import { plural, pluralWord } from '../../shared/french';

/** The longest reminder the form allows is a week: the dates to look at run from today to eight days on. */
const LOOKAHEAD_DAYS = 8;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** When the appointment begins (an all-day one at midnight, Paris time). */
export const startsAt = (a: Pick<StoredAppointment, 'date' | 'start'>): Date => parisToUtc(a.date, a.start ?? '00:00');

/**
 * The scheduler's `appointment-reminders` job: e-mails its author about each planned appointment whose reminder time
 * has come and which has not begun. The reminder is claimed first (unique per appointment and start), so two runs
 * never send it twice; a mail that fails is released, to be tried at the next run.
 */
export async function sendAppointmentReminders(db: Db, now: Date, deps: JobDeps): Promise<string> {
  const dates = Array.from({ length: LOOKAHEAD_DAYS + 2 }, (_, i) => isoDay(now.getTime() + (i - 1) * 86_400_000));
  let sent = 0;
  for (const a of await appointmentsWithReminders(db, dates)) {
    const begins = startsAt(a);
    const remindAt = begins.getTime() - (a.reminder_minutes ?? 0) * 60_000;
    if (now.getTime() < remindAt || now.getTime() >= begins.getTime() || a.user_id === null) continue;
    const key = { appointmentId: a.id, startsAt: begins.toISOString() };
    if (!(await claimReminder(db, key))) continue;
    try {
      await remind({ ...deps, db }, a, a.user_id);
      sent += 1;
    } catch (error) {
      logger.error(`appointment ${a.id} reminder not sent`, error);
      await releaseReminder(db, key);
    }
  }
  return `${plural(sent, 'rappel')} ${pluralWord(sent, 'envoyé')}`;
}

async function remind(deps: JobDeps & { db: Db }, a: StoredAppointment, userId: number): Promise<void> {
  const user = await getUserContact(deps.db, { userId });
  if (!user) return;
  const { from, mailer } = await organizationMailer(deps, a.organization_id);
  const time = a.start && a.end ? `de ${a.start} à ${a.end}` : 'toute la journée';
  const text = [
    `Rappel : « ${a.title} », le ${formatDateLong(a.date)} ${time}.`,
    a.customer_name ? `Client : ${a.customer_name}` : '',
    a.location ? `Lieu : ${a.location}` : '',
    a.note ? `\n${a.note}` : '',
    '',
    `${deps.env.appUrl}/appointments?date=${a.date}`,
  ].filter((line, i, all) => line !== '' || all[i - 1] !== '');
  await mailer.send({
    to: user.email,
    from,
    subject: `Rappel : ${a.title} — ${a.start ? `${a.start}, ` : ''}${formatDateLong(a.date)}`,
    text: `${text.join('\n')}\n`,
  });
}
