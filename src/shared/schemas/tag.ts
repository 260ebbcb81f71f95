import { z } from 'zod';
import { listAnswer, writeAnswer } from './answers';

/** The records a tag can be put on. */
export const TAG_KINDS = ['customer', 'item', 'document'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

/**
 * A small fixed palette, stored by key: the client maps each key to a colour readable in both themes, so a theme
 * change never needs a data change, and a tag can never carry an unreadable colour.
 */
export const TAG_COLORS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type TagColor = (typeof TAG_COLORS)[number];

export const tagInputSchema = z.object({
  name: z
    .string({ error: 'Le nom de l’étiquette est obligatoire' })
    .trim()
    .min(1, 'Le nom de l’étiquette est obligatoire')
    .max(40, 'Nom de l’étiquette : 40 caractères au plus')
    .meta({ label: 'Nom' }),
  color: z
    .enum(TAG_COLORS, { error: `Couleur inconnue : choisissez parmi ${TAG_COLORS.join(', ')}` })
    .default('gray')
    .meta({ label: 'Couleur' }),
  scopes: z
    .array(z.enum(TAG_KINDS, { error: 'Portée : customer, item ou document' }), {
      error: 'Portée : une liste parmi customer, item, document',
    })
    .min(1, 'Portée : cochez au moins un type de fiche (clients, articles ou documents)')
    .transform((list) => TAG_KINDS.filter((k) => list.includes(k)))
    .default([...TAG_KINDS])
    .meta({ label: 'Portée' }),
});
export type TagInput = z.input<typeof tagInputSchema>;
export type Tag = z.infer<typeof tagInputSchema>;

export const tagListQuerySchema = z.object({
  scope: z.enum(TAG_KINDS, { error: 'Portée : customer, item ou document' }).optional().meta({ label: 'Portée' }),
});

/** What a tagged record carries in its input: optional, none by default. */
export const tagIdsField = () =>
  z
    .array(z.number({ error: 'Étiquettes : une liste d’identifiants est attendue' }).int().positive(), {
      error: 'Étiquettes : une liste d’identifiants est attendue',
    })
    .max(20, 'Vingt étiquettes au plus')
    .default([]);

/** A list's `tag` filter, from a query string where an empty value means no filter. */
export const tagFilterField = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'Étiquette : un identifiant est attendu' })
      .int()
      .positive('Étiquette : un identifiant est attendu')
      .optional(),
  );

// Answers (the procedures' `.output()`).

/** A tag as a tagged record carries it. */
export const tagChipSchema = z.object({ id: z.number().int(), name: z.string(), color: z.enum(TAG_COLORS) });

/** A tag as the tags page lists it, with how many records of each kind carry it. */
export const tagSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.enum(TAG_COLORS),
  scopes: z.array(z.enum(TAG_KINDS)),
  usage: z.object({ customer: z.number().int(), item: z.number().int(), document: z.number().int() }),
});
export const tagListSchema = listAnswer(tagSchema);
export const tagWriteSchema = writeAnswer(tagSchema);
