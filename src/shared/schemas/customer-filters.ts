import { z } from 'zod';
import { tagFilterField } from './tag';

/** The customers list's query (issue 5): search, filters, sort and CONTRACT.md's page defaults. */
export const customerListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  type: z.enum(['company', 'individual'], { error: 'Type de client : company ou individual' }).optional(),
  city: z.string().trim().max(100).optional(),
  tag: tagFilterField(),
  archived: z.enum(['exclude', 'include', 'only'], { error: 'archived : exclude, include ou only' }).default('exclude'),
  sort_by: z.enum(['name', 'number', 'created_at', 'city'], { error: 'Tri inconnu' }).default('name'),
  sort_order: z.enum(['asc', 'desc'], { error: 'Ordre de tri : asc ou desc' }).default('asc'),
  page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10),
});
