import { generateToken, hashToken } from '../auth/tokens';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import type { Mailer } from '../mail/mailer';
import { writeCalendar, type IcsEvent } from '../../shared/ics';
import { formatDateLong } from '../../shared/format';
import { fail } from '../errors';
import { logger } from '../logger';
import { smtpFailureMessage } from '../mail/smtp-errors';
import { findFeedByHash, findFeedOfUser, listAppointments, replaceFeed, type StoredAppointment } from '../db/queries/appointments';
import { findOrganizationName } from '../db/queries/organizations';
import { getAppointment } from './appointments';
import { organizationMailer } from './email-settings';
import { clock } from '../clock';

interface MailDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
}

export const FEED_NOT_FOUND = 'Calendrier introuvable : ce lien a été révoqué ou n’a jamais existé';
/** How far back the feed goes: calendars keep their own history, a year is plenty to look back on. */
const FEED_DAYS_BACK = 366;

export function toIcsEvent(a: StoredAppointment, extra: Partial<IcsEvent> = {}): IcsEvent {
  const description = [a.customer_name ? `Client : ${a.customer_name}` : '', a.note].filter(Boolean).join('\n');
  return {
    uid: a.uid,
    sequence: a.sequence,
    date: a.date,
    start: a.start,
    end: a.end,
    summary: a.title,
    location: a.location,
    description,
    status: a.status,
    updatedAt: a.updated_at,
    ...extra,
  };
}

const fileName = (a: StoredAppointment) => `rendez-vous-${a.date}-${a.id}.ics`;

/** One appointment as an .ics file to download. */
export async function appointmentIcs(db: Db, organizationId: number, id: number) {
  const a = await getAppointment(db, organizationId, id);
  return { filename: fileName(a), content: writeCalendar([toIcsEvent(a)]) };
}

export async function calendarFeedState(db: Db, params: { organizationId: number; userId: number }) {
  const feed = await findFeedOfUser(db, params);
  return { url: null, created_at: feed?.created_at ?? null };
}

/**
 * A new private address for this user's calendar apps: a session-strength token, of which only the SHA-256 is kept, so the
 * address is shown once. Making a new one revokes the previous one.
 */
export async function createCalendarFeed(db: Db, appUrl: string, params: { organizationId: number; userId: number }) {
  const token = generateToken();
  await replaceFeed(db, { ...params, tokenHash: hashToken(token) });
  const feed = await findFeedOfUser(db, params);
  return { url: `${appUrl}/api/calendar/${token}.ics`, created_at: feed?.created_at ?? null };
}

export async function revokeCalendarFeed(db: Db, params: { organizationId: number; userId: number }): Promise<void> {
  await replaceFeed(db, { ...params, tokenHash: null });
}

/** The feed a calendar app fetches, with no session: the organisation's appointments from a year ago on. */
export async function calendarFeed(db: Db, token: string) {
  const feed = /^[\w-]{20,100}$/.test(token) ? await findFeedByHash(db, hashToken(token)) : undefined;
  if (!feed) return fail('NOT_FOUND', FEED_NOT_FOUND);
  const from = new Date(clock.now().getTime() - FEED_DAYS_BACK * 86_400_000).toISOString().slice(0, 10);
  const appointments = await listAppointments(db, { organizationId: feed.organization_id, from });
  const name = (await findOrganizationName(db, { organizationId: feed.organization_id })) ?? 'Facturier';
  return {
    filename: 'rendez-vous.ics',
    content: writeCalendar(
      appointments.map((a) => toIcsEvent(a)),
      { name: `Rendez-vous — ${name}` },
    ),
  };
}

const when = (a: StoredAppointment) =>
  a.start && a.end ? `le ${formatDateLong(a.date)} de ${a.start} à ${a.end}` : `le ${formatDateLong(a.date)} (toute la journée)`;

/** The invitation to the customer: a short text and the appointment as an iCalendar REQUEST their calendar can add. */
export async function inviteCustomer(deps: MailDeps, organizationId: number, id: number): Promise<string> {
  const a = await getAppointment(deps.db, organizationId, id);
  if (!a.customer_id || !a.customer_name) return fail('BAD_REQUEST', 'Ce rendez-vous n’a pas de client à inviter');
  if (!a.customer_email) return fail('BAD_REQUEST', `${a.customer_name} n’a pas d’adresse e-mail : ajoutez-la sur sa fiche client`);
  const { organizationName, from, replyTo, mailer, host } = await organizationMailer(deps, organizationId);
  // The organizer is whom the customer's calendar answers: the confirmed sender address, under the sender's name.
  const organizer = typeof from === 'string' ? { name: organizationName, email: from } : { name: from.name, email: from.address };
  const ics = writeCalendar(
    [
      toIcsEvent(a, {
        organizer,
        attendee: { name: a.customer_name, email: a.customer_email },
      }),
    ],
    { method: 'REQUEST' },
  );
  const lines = [
    'Bonjour,',
    '',
    `${organizationName || 'Nous'} vous propose un rendez-vous « ${a.title} » ${when(a)}${a.location ? `, ${a.location}` : ''}.`,
    'Vous le trouverez en pièce jointe, à ajouter à votre agenda.',
    '',
    'Cordialement,',
    organizationName,
  ];
  try {
    await mailer.send({
      to: a.customer_email,
      from,
      replyTo,
      subject: `Rendez-vous : ${a.title} — ${formatDateLong(a.date)}${a.start ? ` à ${a.start}` : ''}`,
      text: `${lines.join('\n')}\n`,
      attachments: [
        { filename: 'invitation.ics', content: Buffer.from(ics, 'utf8'), contentType: 'text/calendar; charset=utf-8; method=REQUEST' },
      ],
    });
  } catch (error) {
    if (mailer.outboxDir) throw error;
    logger.error(`appointment ${a.id} invitation of organization ${organizationId} refused by ${host}`, error);
    fail('BAD_GATEWAY', `L’invitation n’est pas partie : ${smtpFailureMessage(error, host)}`);
  }
  return mailer.outboxDir
    ? `Aucun serveur SMTP n’est configuré : l’invitation pour ${a.customer_email} est déposée dans la boîte d’envoi du serveur (${mailer.outboxDir})`
    : `Invitation envoyée à ${a.customer_email}`;
}
