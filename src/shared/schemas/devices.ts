import { z } from 'zod';

export const deviceSchema = z.object({
  /** A public handle of the session: the start of its stored hash, never the cookie token. */
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  ip: z.string(),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  current: z.boolean(),
});
export const devicesAnswerSchema = z.object({ data: z.array(deviceSchema) });
export const deviceIdSchema = z
  .string({ error: 'Appareil introuvable' })
  .regex(/^[0-9a-f]{16}$/, 'Appareil introuvable')
  .meta({ label: 'Appareil' });
