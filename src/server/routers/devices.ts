import { z } from 'zod';
import { selfProcedure, router } from '../trpc';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { deviceIdSchema, devicesAnswerSchema } from '../../shared/schemas/devices';
import * as devices from '../services/devices';

export const devicesRouter = router({
  list: selfProcedure
    .meta({ rest: { method: 'GET', path: '/api/devices', summary: 'Les sessions ouvertes de l’utilisateur' } })
    .output(devicesAnswerSchema)
    .query(({ ctx }) => devices.devicesOf(ctx)),
  revoke: selfProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/devices/{id}', summary: 'Ferme la session d’un autre appareil' } })
    .input(z.object({ id: deviceIdSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await devices.revokeDevice(ctx, input.id);
      return { messages: 'Appareil déconnecté' };
    }),
  revokeOthers: selfProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/devices', summary: 'Ferme les sessions de tous les autres appareils' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => {
      const count = await devices.revokeOtherDevices(ctx);
      return {
        messages: count > 1 ? `${count} appareils déconnectés` : count === 1 ? '1 appareil déconnecté' : 'Aucun autre appareil connecté',
      };
    }),
});
