import { z } from 'zod';

/**
 * The shapes of every answer: reads of a list `{ total, data }`, writes `{ messages, data }`,
 * deletions and acknowledgements `{ messages }`. Procedures declare them as `.output()`, so the OpenAPI document says the same.
 */
export const messageAnswerSchema = z.object({ messages: z.string() });

export const writeAnswer = <T extends z.ZodType>(data: T) => z.object({ messages: z.string(), data });

export const listAnswer = <T extends z.ZodType>(item: T) => z.object({ total: z.number().int(), data: z.array(item) });

/** A CSV import's request: the file's text, and whether to only report (the default) or write the valid rows. */
export const csvImportInputSchema = z.object({
  csv: z.string({ error: 'Le contenu du fichier est attendu' }).max(10 * 1024 * 1024, 'Le fichier dépasse 10 Mo'),
  dry_run: z.boolean().default(true),
});

/** A CSV import's report, for a dry run and for the real one (`created` is 0 on a dry run). */
export const csvImportReportSchema = z.object({
  total_rows: z.number().int(),
  valid: z.number().int(),
  rejected: z.array(z.object({ line: z.number().int(), messages: z.array(z.string()) })),
  ignored_columns: z.array(z.string()),
  /** Cells the import read differently from the file, or that look like a spreadsheet formula: said, not hidden. */
  changed: z.array(z.object({ line: z.number().int(), column: z.string(), message: z.string() })),
  created: z.number().int(),
});

/** A CSV export: the file the browser downloads. */
export const csvFileSchema = z.object({ filename: z.string(), content: z.string() });

/** A text file a REST door with `meta.rest.file` sends as the file itself (a tRPC caller gets the object). */
export const textFileSchema = z.object({ filename: z.string(), content: z.string() });

/** A binary file a REST door with `meta.rest.file.inline` sends as its bytes (a receipt); tRPC gets the object. */
export const binaryFileSchema = z.object({ filename: z.string(), content_type: z.string(), content_base64: z.string() });

/** A file sent in JSON, as the uploads take it: its name and its bytes in base64 (line breaks allowed). */
export const uploadedFileSchema = z.object({
  filename: z
    .string({ error: 'Fichier : le nom du fichier est attendu' })
    .trim()
    .min(1, 'Fichier : le nom du fichier est attendu')
    .max(200)
    .meta({ label: 'Fichier' }),
  content_base64: z
    .string({ error: 'Fichier : le contenu est attendu (base64)' })
    .min(1, 'Fichier : le fichier est vide')
    .regex(/^[A-Za-z0-9+/=\s]+$/, 'Fichier : contenu base64 attendu')
    .meta({ label: 'Fichier' }),
});
