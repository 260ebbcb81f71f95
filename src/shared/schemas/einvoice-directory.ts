import { z } from 'zod';

/** GET /api/directory/{siren}: a business as the platform's directory lists it, with where its invoices go. */
export const directoryListingSchema = z.object({
  siren: z.string(),
  name: z.string(),
  addresses: z.array(z.object({ electronic_address: z.string(), routing_code: z.string().optional() })),
});
export type DirectoryListingAnswer = z.infer<typeof directoryListingSchema>;

export const directorySirenSchema = z
  .string({ error: 'SIREN : 9 chiffres attendus' })
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{9}$/, 'SIREN : 9 chiffres attendus'))
  .meta({ label: 'SIREN' });
