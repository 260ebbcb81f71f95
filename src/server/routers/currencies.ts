import { z } from 'zod';
import { manageProcedure, readProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { currencyInputSchema, currencyListSchema, currencyRateInputSchema, currencyWriteSchema } from '../../shared/schemas/currency';
import { createCurrency, editCurrencyRate, listCurrencies, removeCurrency } from '../services/currencies';

/** Paramètres → Devises: the organisation's enabled currencies and their hand-typed rates against the base. */
export const currenciesRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/currencies', summary: 'Devises activées et leurs taux' } })
    .output(currencyListSchema)
    .query(async ({ ctx }) => {
      const data = await listCurrencies(ctx.db, ctx.organizationId);
      return { total: data.length, data };
    }),
  create: manageProcedure
    .meta({ rest: { method: 'POST', path: '/api/currencies', status: 201, summary: 'Active une devise du catalogue' } })
    .input(currencyInputSchema)
    .output(currencyWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createCurrency(ctx.db, ctx.organizationId, input),
    })),
  update: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/currencies/{id}', bodyKey: 'data', summary: 'Change le taux d’une devise' } })
    .input(z.object({ id: idSchema, data: currencyRateInputSchema }))
    .output(currencyWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editCurrencyRate(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/currencies/{id}', summary: 'Désactive une devise' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeCurrency(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
