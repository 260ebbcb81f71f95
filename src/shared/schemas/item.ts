import { z } from 'zod';
import { tagIdsField, tagFilterField } from './tag';
import { hasAtMostDecimals, INPUT_SCALE } from '../money';

/** A catalogue item (issue 5): what the document editor's picker offers. Prices are excluding tax (HT). */
export const itemInputSchema = z.object({
  code: z.string().trim().max(40, 'Code : 40 caractères au plus').default(''),
  sku: z.string().trim().max(60, 'Référence : 60 caractères au plus').default(''),
  name: z
    .string({ error: 'La désignation est obligatoire' })
    .trim()
    .min(1, 'La désignation est obligatoire')
    .max(200, 'Désignation : 200 caractères au plus'),
  description: z.string().max(5000).default(''),
  unit: z.string().trim().min(1, 'L’unité est obligatoire').max(20).default('u'),
  unit_price: z
    .number({ error: 'Le prix unitaire est un nombre' })
    .min(0, 'Le prix unitaire ne peut être négatif')
    .max(1e12, 'Prix unitaire trop grand')
    .refine((n) => hasAtMostDecimals(n, INPUT_SCALE), 'Prix unitaire : 4 décimales au plus'),
  kind: z.enum(['goods', 'service'], { error: 'Nature : bien (goods) ou service' }).default('service'),
  active: z.boolean().default(true),
  tax_ids: z.array(z.number().int().positive()).max(5, 'Cinq taxes au plus').default([]),
  tag_ids: tagIdsField(),
});
export type ItemInput = z.input<typeof itemInputSchema>;
export type Item = z.infer<typeof itemInputSchema>;

export const itemListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  kind: z.enum(['goods', 'service']).optional(),
  active: z.enum(['all', 'active', 'inactive']).default('all'),
  tag: tagFilterField(),
  archived: z.enum(['exclude', 'include', 'only']).default('exclude'),
  sort_by: z.enum(['name', 'code', 'unit_price', 'created_at'], { error: 'Tri inconnu' }).default('name'),
  sort_order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10),
});
