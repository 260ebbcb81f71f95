import { z } from 'zod';
import { publicProcedure, readProcedure, selfProcedure, writeProcedure, router } from '../trpc';
import {
  appointmentInputSchema,
  appointmentListQuerySchema,
  appointmentListSchema,
  appointmentSchema,
  appointmentWriteSchema,
  billAppointmentsInputSchema,
  calendarFeedSchema,
} from '../../shared/schemas/appointment';
import { documentWriteSchema } from '../../shared/schemas/document-model';
import { idSchema } from '../../shared/schemas/reference';
import { textFileSchema, messageAnswerSchema } from '../../shared/schemas/answers';
import {
  billAppointments,
  createAppointment,
  editAppointment,
  getAppointment,
  listAppointmentsOf,
  publicAppointment,
  removeAppointment,
} from '../services/appointments';
import {
  appointmentIcs,
  calendarFeed,
  calendarFeedState,
  createCalendarFeed,
  inviteCustomer,
  revokeCalendarFeed,
} from '../services/appointment-calendar';

const ICS = { contentType: 'text/calendar', charset: 'utf-8' } as const;

export const appointmentsRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/appointments', summary: 'Rendez-vous d’une période (du, au), par date et heure' } })
    .input(appointmentListQuerySchema.optional())
    .output(appointmentListSchema)
    .query(({ ctx, input }) => listAppointmentsOf(ctx.db, ctx.organizationId, appointmentListQuerySchema.parse(input ?? {}))),
  /** This user's private calendar address: whether one exists (its token is kept hashed, so shown only when made). */
  feed: selfProcedure
    .meta({ rest: { method: 'GET', path: '/api/appointments/feed', summary: 'Le lien d’abonnement à l’agenda, s’il existe' } })
    .output(calendarFeedSchema)
    .query(({ ctx }) => calendarFeedState(ctx.db, { organizationId: ctx.organizationId, userId: ctx.userId })),
  createFeed: selfProcedure
    .meta({
      rest: { method: 'POST', path: '/api/appointments/feed', status: 201, summary: 'Crée un lien d’abonnement (révoque le précédent)' },
    })
    .output(z.object({ messages: z.string(), data: calendarFeedSchema }))
    .mutation(async ({ ctx }) => ({
      messages: 'Lien d’abonnement créé : copiez-le maintenant, il ne sera plus affiché',
      data: await createCalendarFeed(ctx.db, ctx.env.appUrl, { organizationId: ctx.organizationId, userId: ctx.userId }),
    })),
  revokeFeed: selfProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/appointments/feed', summary: 'Révoque le lien d’abonnement' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => {
      await revokeCalendarFeed(ctx.db, { organizationId: ctx.organizationId, userId: ctx.userId });
      return { messages: 'Lien d’abonnement révoqué' };
    }),
  /** The feed calendar apps subscribe to: no session, the token is the key. */
  calendar: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/calendar/{token}.ics', file: ICS, summary: 'Agenda privé au format iCalendar' } })
    .input(z.object({ token: z.string({ error: 'Lien invalide' }).max(200, 'Lien invalide') }))
    .output(textFileSchema)
    .query(({ ctx, input }) => calendarFeed(ctx.db, input.token)),
  bill: writeProcedure
    .meta({
      limit: { key: 'documents' },
      rest: { method: 'POST', path: '/api/appointments/bill', status: 201, summary: 'Facture des rendez-vous effectués (brouillon)' },
    })
    .input(billAppointmentsInputSchema)
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Facture brouillon créée',
      data: await billAppointments(ctx.db, ctx.organizationId, input),
    })),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/appointments/{id}', summary: 'Un rendez-vous' } })
    .input(z.object({ id: idSchema }))
    .output(appointmentSchema)
    .query(async ({ ctx, input }) => publicAppointment(await getAppointment(ctx.db, ctx.organizationId, input.id))),
  ics: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/appointments/{id}/ics', file: ICS, summary: 'Le rendez-vous en fichier .ics' } })
    .input(z.object({ id: idSchema }))
    .output(textFileSchema)
    .query(({ ctx, input }) => appointmentIcs(ctx.db, ctx.organizationId, input.id)),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/appointments', status: 201, summary: 'Crée un rendez-vous' } })
    .input(appointmentInputSchema)
    .output(appointmentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createAppointment(ctx.db, ctx.organizationId, ctx.userId, input),
    })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/appointments/{id}', bodyKey: 'data', summary: 'Modifie ou déplace un rendez-vous' } })
    .input(z.object({ id: idSchema, data: appointmentInputSchema }))
    .output(appointmentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editAppointment(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: writeProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/appointments/{id}', summary: 'Supprime un rendez-vous' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeAppointment(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
  invite: writeProcedure
    .meta({
      upstream: true,
      rest: { method: 'POST', path: '/api/appointments/{id}/invite', summary: 'Envoie l’invitation (.ics) au client' },
    })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => ({ messages: await inviteCustomer(ctx, ctx.organizationId, input.id) })),
});
