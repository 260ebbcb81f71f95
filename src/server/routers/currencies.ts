import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { currencyInputSchema, currencyRateInputSchema, enabledCurrencySchema } from '../../shared/schemas/currency';
import { createCurrency, editCurrencyRate, listCurrencies, removeCurrency } from '../services/currencies';

const written = z.object({ messages: z.string(), data: enabledCurrencySchema });

/** Paramètres → Devises: the organisation's enabled currencies and their hand-typed rates against the base. */
export const currenciesRouter = router({
  list: protectedProcedure.output(z.object({ total: z.number(), data: z.array(enabledCurrencySchema) })).query(async ({ ctx }) => {
    const data = await listCurrencies(ctx.db, ctx.organizationId);
    return { total: data.length, data };
  }),
  create: protectedProcedure
    .input(currencyInputSchema)
    .output(written)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createCurrency(ctx.db, ctx.organizationId, input),
    })),
  update: protectedProcedure
    .input(z.object({ id: idSchema, data: currencyRateInputSchema }))
    .output(written)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editCurrencyRate(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: protectedProcedure
    .input(z.object({ id: idSchema }))
    .output(z.object({ messages: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await removeCurrency(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
