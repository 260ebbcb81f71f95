import { z } from 'zod';
import { appSettingsSchema } from './settings';
import { documentTemplateSchema } from './template';

/**
 * `/api/settings` reads and writes two objects at one path: the application settings, or with `key` the object that
 * Key names (only `document`, the document template, so far). One procedure per verb, so that one REST
 * path is one procedure and one OpenAPI operation.
 */
export const SETTINGS_UNKNOWN_KEY = 'Clé de paramètres inconnue (attendu : document)';

const KEY_LABEL = 'Clé de paramètres';

export const settingsQuerySchema = z
  .object({ key: z.enum(['document'], { error: SETTINGS_UNKNOWN_KEY }).optional().meta({ label: KEY_LABEL }) })
  .strict()
  .optional();

/** Without key, `{ data }` is the whole settings object; with `key: 'document'`, the whole template. */
export const settingsWriteSchema = z.discriminatedUnion(
  'key',
  [
    z.object({ key: z.undefined().optional().meta({ label: KEY_LABEL }), data: appSettingsSchema }),
    z.object({ key: z.literal('document').meta({ label: KEY_LABEL }), data: documentTemplateSchema }),
  ],
  { error: SETTINGS_UNKNOWN_KEY },
);

// Answers (the procedures' `.output()`).
export const settingsReadSchema = z.union([appSettingsSchema, z.object({ data: documentTemplateSchema }).strict()]);
/** The object written, as saved: the settings (strict: a template never passes for them) or the template. */
export const settingsWrittenSchema = z.object({ messages: z.string(), data: z.union([appSettingsSchema, documentTemplateSchema]) });
