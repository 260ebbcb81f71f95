import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { listAnswer, writeAnswer } from '../../shared/schemas/answers';
import {
  reminderListQuerySchema,
  reminderListSchema,
  reminderRecordSchema,
  reminderSettingsSchema,
  scheduledJobSchema,
} from '../../shared/schemas/reminders';
import { clock } from '../clock';
import { JOBS } from '../scheduler/jobs';
import { listScheduledJobs } from '../services/scheduled-jobs';
import { getReminderSettings, listReminders, remindersOfDocument, saveReminderSettings, sendReminder } from '../services/payment-reminders';

/** Payment reminders: the schedule, what is late, one-click sending; and the scheduler's jobs (§5). */
export const remindersRouter = router({
  list: readProcedure
    // Kept (kept-answers.ts): every invoice late or due is weighed to count the head, whichever page is asked.
    .meta({ kept: true, rest: { method: 'GET', path: '/api/reminders', summary: 'Factures en retard et relances à envoyer aujourd’hui' } })
    .input(reminderListQuerySchema)
    .output(reminderListSchema)
    .query(({ ctx, input }) => listReminders(ctx.db, ctx.organizationId, clock.now(), input)),
  // Not `heavy`: each invoice's due step is sent once (a unique key), so a bulk « Envoyer les N relances » is bounded.
  send: writeProcedure
    .meta({
      upstream: true,
      rest: { method: 'POST', path: '/api/reminders/{documentId}/send', status: 201, summary: 'Envoie la relance due d’une facture' },
    })
    .input(z.object({ documentId: idSchema }))
    .output(writeAnswer(reminderRecordSchema))
    .mutation(({ ctx, input }) =>
      sendReminder(ctx, ctx.organizationId, input.documentId, { trigger: 'manual', now: clock.now(), userId: ctx.userId }),
    ),
  ofDocument: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}/reminders', summary: 'Relances envoyées pour une facture' } })
    .input(z.object({ id: idSchema }))
    .output(listAnswer(reminderRecordSchema))
    .query(async ({ ctx, input }) => {
      const data = await remindersOfDocument(ctx.db, ctx.organizationId, input.id);
      return { total: data.length, data };
    }),
  settings: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/reminders', summary: 'Calendrier des relances de paiement' } })
    .output(reminderSettingsSchema)
    .query(({ ctx }) => getReminderSettings(ctx.db, ctx.organizationId)),
  saveSettings: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/settings/reminders', summary: 'Enregistre le calendrier des relances' } })
    .input(reminderSettingsSchema)
    .output(writeAnswer(reminderSettingsSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveReminderSettings(ctx.db, ctx.organizationId, input),
    })),
  jobs: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/jobs', summary: 'Tâches planifiées : dernière et prochaine exécution' } })
    .output(listAnswer(scheduledJobSchema))
    .query(async ({ ctx }) => {
      const data = await listScheduledJobs(ctx.db, JOBS, clock.now());
      return { total: data.length, data };
    }),
});
