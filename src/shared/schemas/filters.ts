import { z } from 'zod';
import { LIST_TYPES } from './document';
import { PERIODS, SORT_FIELDS } from '../list-fields';

/** Query strings carry text: numbers and lists arrive as strings and are coerced here. */
const optionalNumber = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce.number({ error: 'Un nombre est attendu' }).optional(),
);

export { PERIODS, SORT_FIELDS };

/** List filters; defaults per_page 10, page 1. */
export const listFiltersSchema = z.object({
  status: z.string().max(30).optional().meta({ label: 'Statut' }),
  search: z.string().trim().max(200).optional().meta({ label: 'Recherche' }),
  period: z.enum(PERIODS, { error: 'Période inconnue' }).optional().meta({ label: 'Période' }),
  from: z.iso.date().optional().meta({ label: 'Du' }),
  to: z.iso.date().optional().meta({ label: 'Au' }),
  action: z.string().max(30).optional(),
  page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10).meta({ label: 'Lignes par page' }),
  sort_by: z.enum(SORT_FIELDS, { error: 'Tri inconnu' }).default('date').meta({ label: 'Tri' }),
  sort_order: z.enum(['asc', 'desc'], { error: 'Ordre de tri : asc ou desc' }).default('desc').meta({ label: 'Ordre de tri' }),
  min_amount: optionalNumber.meta({ label: 'Montant minimum' }),
  max_amount: optionalNumber.meta({ label: 'Montant maximum' }),
  customer: z.coerce.number().int().positive().optional(),
  type: z.enum(LIST_TYPES, { error: 'Type de document inconnu' }).optional().meta({ label: 'Type' }),
});
export type ListFilters = z.infer<typeof listFiltersSchema>;

/** `{ total, data }`: every list answer of the API. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ total: z.number().int().min(0), data: z.array(item) });

/** Offset and limit for a page, for the queries. */
export const pageWindow = (f: Pick<ListFilters, 'page' | 'per_page'>) => ({ offset: (f.page - 1) * f.per_page, limit: f.per_page });
