import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Appointments: a date and Paris wall-clock times ('HH:MM[:SS]', null for an all-day one), an optional
 * customer, a status, a reminder, and the draft invoice it was billed on (billed once). Each user's private calendar
 * feed is known by the SHA-256 of its random token, so a stolen database gives no working address. A reminder sent
 * is a row keyed by the appointment and the moment it announced: the unique index makes « sent once » hold even when
 * two scheduler runs overlap, and moving the appointment arms a new reminder.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('appointments'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('planned'))
    .addColumn('reminder_minutes', 'integer')
    .addColumn('billed_document_id', 'integer', (c) => c.references('documents.id'))
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('appointments_org_date').on('appointments').columns(['organization_id', 'date', 'start']).execute();
  await db.schema.createIndex('appointments_customer').on('appointments').columns(['organization_id', 'customer_id']).execute();

  await withId(db.schema.createTable('calendar_feeds'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('calendar_feeds_user_unique', ['organization_id', 'user_id'])
    .execute();

  await withId(db.schema.createTable('appointment_reminders'))
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX appointment_reminders_once ON appointment_reminders (appointment_id, starts_at)`.execute(db);
}
