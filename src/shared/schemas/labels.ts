import { z } from 'zod';
import { labelsByKey } from '../validation-messages';
import { loginInputSchema, registerInputSchema, resetPasswordInputSchema, userSchema } from './auth';
import { currencyInputSchema, currencyRateInputSchema, currencySchema } from './currency';
import { customerListQuerySchema } from './customer-filters';
import { customerInputSchema } from './customer';
import { depositRequestSchema, documentInputSchema } from './document';
import { emailSettingsSchema } from './email-settings';
import { feedbackInputSchema } from './feedback';
import { listFiltersSchema } from './filters';
import { itemInputSchema, itemListQuerySchema } from './item';
import { logoUploadSchema, organizationSettingsSchema } from './organization';
import { paymentInputSchema } from './payment';
import { idSchema, taxRateInputSchema, unitInputSchema } from './reference';
import { appSettingsSchema } from './settings';
import { tagInputSchema, tagListQuerySchema } from './tag';

/**
 * The parameters routers declare beside the shared bodies (a payment's id in a path, a share link, the lines a
 * credit note takes back, a deposit's percentage), labelled here so that every field has its label on a schema.
 */
export const routeParamsSchema = z.object({
  paymentId: idSchema.meta({ label: 'Paiement' }),
  uuid: z.string().meta({ label: 'Lien' }),
  percent: z.number().meta({ label: 'Acompte' }),
  lines: z.array(z.unknown()).meta({ label: 'Lignes' }),
});

/**
 * The labels of every shared schema, by field key, for a caller that has the issues but no longer the schema they
 * came from (the server's error formatter sees a tRPC error, not the procedure). Where two schemas label a key
 * differently, the first listed wins (a customer's `shipping` is an address; a document's says 'Frais de port' in
 * its own messages).
 */
const ROOTS = [
  registerInputSchema,
  loginInputSchema,
  resetPasswordInputSchema,
  userSchema,
  customerInputSchema,
  customerListQuerySchema,
  organizationSettingsSchema,
  logoUploadSchema,
  appSettingsSchema,
  itemInputSchema,
  itemListQuerySchema,
  taxRateInputSchema,
  unitInputSchema,
  tagInputSchema,
  tagListQuerySchema,
  emailSettingsSchema,
  feedbackInputSchema,
  currencySchema,
  currencyInputSchema,
  currencyRateInputSchema,
  listFiltersSchema,
  documentInputSchema,
  depositRequestSchema,
  paymentInputSchema,
  routeParamsSchema,
];

let index: { byKey: Map<string, string>; all: Set<string> } | undefined;

/** Built once, on first use: walking the schemas costs a few milliseconds. */
export function sharedFieldLabels(): { byKey: ReadonlyMap<string, string>; all: ReadonlySet<string> } {
  index ??= labelsByKey(ROOTS);
  return index;
}
