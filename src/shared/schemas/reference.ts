import { z } from 'zod';
import { listAnswer, writeAnswer } from './answers';
import { hasAtMostDecimals, INPUT_SCALE } from '../money';

/** French VAT rates in force (CGI art. 278 to 281 nonies): normal, intermediate, reduced, super-reduced, exempt. */
export const FRENCH_TAX_RATES = [
  { title: 'TVA 20 %', rate: 20 },
  { title: 'TVA 10 %', rate: 10 },
  { title: 'TVA 5,5 %', rate: 5.5 },
  { title: 'TVA 2,1 %', rate: 2.1 },
  { title: 'TVA 0 %', rate: 0 },
] as const;

export const DEFAULT_UNITS = ['u', 'h', 'jour', 'kg', 'm', 'm²', 'forfait'] as const;

export const idSchema = z.coerce.number({ error: 'Identifiant invalide' }).int('Identifiant invalide').positive('Identifiant invalide');

export const taxRateInputSchema = z.object({
  title: z
    .string({ error: 'L’intitulé de la taxe est obligatoire' })
    .trim()
    .min(1, 'L’intitulé de la taxe est obligatoire')
    .max(60, 'Intitulé : 60 caractères au plus')
    .meta({ label: 'Intitulé' }),
  rate: z
    .number({ error: 'Le taux est un nombre' })
    .min(0, 'Le taux ne peut être négatif')
    .max(100, 'Le taux ne peut dépasser 100 %')
    .refine((n) => hasAtMostDecimals(n, INPUT_SCALE), 'Taux : 4 décimales au plus')
    .meta({ label: 'Taux' }),
});
export type TaxRateInput = z.infer<typeof taxRateInputSchema>;

export const unitInputSchema = z.object({
  name: z
    .string({ error: 'Le nom de l’unité est obligatoire' })
    .trim()
    .min(1, 'Le nom de l’unité est obligatoire')
    .max(20, 'Unité : 20 caractères au plus')
    .meta({ label: 'Nom' }),
});

// Answers (the procedures' `.output()`).

export const taxSchema = z.object({ id: z.number().int(), title: z.string(), rate: z.number(), position: z.number().int() });
export const taxListSchema = listAnswer(taxSchema);
export const taxWriteSchema = writeAnswer(taxSchema);
export const unitSchema = z.object({ id: z.number().int(), name: z.string(), position: z.number().int() });
export const unitListSchema = listAnswer(unitSchema);
export const unitWriteSchema = writeAnswer(unitSchema);
