import { z } from 'zod';

/** What a key may do (`scope`): `read` reads and exports, `write` also writes the day's records. */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Lecture seule',
  write: 'Lecture et écriture',
};

/** Every secret starts so: a leaked one is recognisable in logs and by secret scanners. */
export const API_KEY_SECRET_PREFIX = 'fk_live_';

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, {
  error: 'Portée inconnue : choisissez read (lecture seule) ou write (lecture et écriture)',
});

export const apiKeyInputSchema = z
  .object({
    name: z
      .string({ error: 'Donnez un nom à la clé' })
      .trim()
      .min(1, 'Donnez un nom à la clé')
      .max(100, 'Le nom de la clé fait 100 caractères au plus')
      .meta({ label: 'Nom' }),
    scope: apiKeyScopeSchema.meta({ label: 'Portée' }),
    /** The `webhooks` scope: the key may also add, change and replay the organisation's webhooks. */
    webhooks: z.boolean({ error: 'Webhooks : true ou false est attendu' }).default(false).meta({ label: 'Webhooks' }),
  })
  .strict();
export type ApiKeyInput = z.infer<typeof apiKeyInputSchema>;

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: apiKeyScopeSchema,
  /** Whether it has the `webhooks` scope (manages the webhooks). */
  webhooks: z.boolean(),
  /** The first characters of the secret, to tell keys apart; never enough to use one. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** Who created it: the key never does more than this person may. */
  created_by: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysAnswerSchema = z.object({ total: z.number().int(), data: z.array(apiKeySchema) });

/** The creation's answer: the only time the secret is ever sent. */
export const apiKeyCreatedSchema = z.object({
  messages: z.string(),
  data: apiKeySchema.extend({ secret: z.string() }),
});
