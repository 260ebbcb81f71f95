import { z } from 'zod';
import { listAnswer } from './answers';

export const searchQuerySchema = z.object({ q: z.string().trim().max(200, 'Recherche : 200 caractères au plus') });

/** One hit of the shell's global search; `document_type` says which page a document opens on. */
export const searchResultsSchema = listAnswer(
  z.object({
    kind: z.enum(['customer', 'item', 'document']),
    id: z.number().int(),
    title: z.string(),
    subtitle: z.string(),
    document_type: z.string().nullable(),
  }),
);
