/**
 * An appointment's statuses. Kept apart from its schema (schemas/appointment.ts, which re-exports them): the agenda's
 * chips and list name them, and its first load carries no zod.
 */
export const APPOINTMENT_STATUSES = ['planned', 'done', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = { planned: 'Prévu', done: 'Effectué', cancelled: 'Annulé' };
