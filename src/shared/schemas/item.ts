import { z } from 'zod';
import { tagIdsField, tagFilterField } from './tag';
import { tagChipSchema } from './tag';
import { listAnswer, writeAnswer } from './answers';
import { numberError } from './fields';
import { hasAtMostDecimals, INPUT_SCALE } from '../money';

/** A catalogue item: what the document editor's picker offers. Prices are excluding tax (HT). */
export const itemInputSchema = z.object({
  code: z.string().trim().max(40, 'Code : 40 caractères au plus').default('').meta({ label: 'Code' }),
  sku: z.string().trim().max(60, 'Référence : 60 caractères au plus').default('').meta({ label: 'Référence' }),
  name: z
    .string({ error: 'La désignation est obligatoire' })
    .trim()
    .min(1, 'La désignation est obligatoire')
    .max(200, 'Désignation : 200 caractères au plus')
    .meta({ label: 'Nom' }),
  description: z.string().max(5000).default('').meta({ label: 'Description' }),
  unit: z.string().trim().min(1, 'L’unité est obligatoire').max(20).default('u').meta({ label: 'Unité' }),
  unit_price: z
    .number({ error: numberError('Le prix unitaire est un nombre', 'Le prix unitaire est un nombre (ex. 12,50)') })
    .min(0, 'Le prix unitaire ne peut être négatif')
    .max(1e12, 'Prix unitaire trop grand')
    .refine((n) => hasAtMostDecimals(n, INPUT_SCALE), 'Prix unitaire : 4 décimales au plus')
    .meta({ label: 'Prix unitaire' }),
  kind: z.enum(['goods', 'service'], { error: 'Nature : bien (goods) ou service' }).default('service').meta({ label: 'Nature' }),
  active: z.boolean().default(true).meta({ label: 'Actif' }),
  tax_ids: z.array(z.number().int().positive()).max(5, 'Cinq taxes au plus').default([]).meta({ label: 'TVA' }),
  tag_ids: tagIdsField().meta({ label: 'Étiquettes' }),
});
export type ItemInput = z.input<typeof itemInputSchema>;
export type Item = z.infer<typeof itemInputSchema>;

export const itemListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().meta({ label: 'Recherche' }),
  kind: z.enum(['goods', 'service']).optional().meta({ label: 'Nature' }),
  active: z.enum(['all', 'active', 'inactive']).default('all').meta({ label: 'Actif' }),
  tag: tagFilterField().meta({ label: 'Étiquette' }),
  archived: z.enum(['exclude', 'include', 'only']).default('exclude'),
  sort_by: z.enum(['name', 'code', 'unit_price', 'created_at'], { error: 'Tri inconnu' }).default('name').meta({ label: 'Tri' }),
  sort_order: z.enum(['asc', 'desc']).default('asc').meta({ label: 'Ordre de tri' }),
  page: z.coerce.number().int().min(1).default(1).meta({ label: 'Page' }),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10).meta({ label: 'Lignes par page' }),
});

// Answers (the procedures' `.output()`).

export const itemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  sku: z.string(),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  unit_price: z.number(),
  kind: z.enum(['goods', 'service']),
  active: z.boolean(),
  tax_ids: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  tag_ids: z.array(z.number().int()),
  tags: z.array(tagChipSchema),
});
export const itemListSchema = listAnswer(itemSchema);
export const itemWriteSchema = writeAnswer(itemSchema);
