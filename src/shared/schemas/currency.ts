import { z } from 'zod';
import { listAnswer, writeAnswer } from './answers';
import { parseRate } from '../exchange';
import { findCurrency } from '../currencies';

/** Currency catalogue entry. */
export const currencySchema = z.object({
  code: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .meta({ label: 'Code' }),
  name: z.string().min(1).meta({ label: 'Nom' }),
  symbol: z.string().min(1),
  symbol_native: z.string().min(1),
  decimal_digits: z.number().int().min(0).max(4),
  rounding: z.number().min(0),
  name_plural: z.string().min(1),
});
export type Currency = z.infer<typeof currencySchema>;

// Enabled currencies (Paramètres → Devises): a catalogue code and a hand-typed rate against the base currency.
const rateField = () =>
  z.unknown().transform((value, ctx) => {
    const parsed = parseRate(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error, input: value });
      return z.NEVER;
    }
    return parsed.rate;
  });

const rateDateField = () =>
  z
    .string({ error: 'Date du taux : une date AAAA-MM-JJ' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date du taux : une date AAAA-MM-JJ')
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      'Date du taux : cette date n’existe pas',
    )
    .optional();

export const currencyInputSchema = z.object({
  code: z
    .string({ error: 'Code devise : choisissez une devise du catalogue' })
    .trim()
    .toUpperCase()
    .refine((code) => findCurrency(code) !== undefined, {
      error: (issue) =>
        String(issue.input).trim() === ''
          ? 'Choisissez une devise dans la liste'
          : `Code devise « ${String(issue.input).trim()} » inconnu du catalogue ISO 4217`,
    })
    .meta({ label: 'Code' }),
  /** Units of this currency for 1 unit of the base currency; kept as an exact decimal string. */
  rate: rateField().meta({ label: 'Taux' }),
  rate_date: rateDateField(),
});
export type CurrencyInput = z.infer<typeof currencyInputSchema>;

export const currencyRateInputSchema = z.object({ rate: rateField(), rate_date: rateDateField() });
export type CurrencyRateInput = z.infer<typeof currencyRateInputSchema>;

/** One enabled currency as the API answers it: the stored rate, enriched from the catalogue. */
export const enabledCurrencySchema = z.object({
  id: z.number().meta({ label: 'Identifiant' }),
  code: z.string().meta({ label: 'Code' }),
  name: z.string().meta({ label: 'Nom' }),
  symbol: z.string(),
  symbol_native: z.string(),
  decimal_digits: z.number(),
  rate: z.string().meta({ label: 'Taux' }),
  rate_date: z.string(),
  updated_at: z.string(),
  base: z.boolean(),
});
export type EnabledCurrency = z.infer<typeof enabledCurrencySchema>;

// Answers (the procedures' `.output()`).
export const currencyListSchema = listAnswer(enabledCurrencySchema);
export const currencyWriteSchema = writeAnswer(enabledCurrencySchema);
