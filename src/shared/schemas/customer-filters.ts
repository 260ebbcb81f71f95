import { z } from 'zod';
import { tagFilterField } from './tag';

/**
 * A yes/no filter from a query string: only `true`/`false` (or a real boolean from tRPC); empty means no filter.
 * z.coerce.boolean would read the text "false" as true.
 */
const booleanFilter = (field: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: `${field} : true ou false` }).optional(),
  );

/** The customers list's query: search, filters, sort and the API's page defaults (page 1, 10 a page). */
export const customerListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().meta({ label: 'Recherche' }),
  type: z.enum(['company', 'individual'], { error: 'Type de client : company ou individual' }).optional().meta({ label: 'Type' }),
  city: z.string().trim().max(100).optional().meta({ label: 'Ville' }),
  tag: tagFilterField().meta({ label: 'Étiquette' }),
  // Customers with an issued invoice still to be paid ("has unpaid invoices").
  unpaid: booleanFilter('unpaid'),
  archived: z.enum(['exclude', 'include', 'only'], { error: 'archived : exclude, include ou only' }).default('exclude'),
  sort_by: z.enum(['name', 'number', 'created_at', 'city'], { error: 'Tri inconnu' }).default('name').meta({ label: 'Tri' }),
  sort_order: z.enum(['asc', 'desc'], { error: 'Ordre de tri : asc ou desc' }).default('asc').meta({ label: 'Ordre de tri' }),
  page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10).meta({ label: 'Lignes par page' }),
});
