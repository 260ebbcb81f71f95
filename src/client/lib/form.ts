import type { z } from 'zod';

/** Validates form values with the same Zod schema the server uses; one message per field (the first). */
export function fieldErrors<S extends z.ZodType>(schema: S, values: unknown): { data: z.infer<S> | null; errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= issue.message;
  }
  return { data: null, errors };
}
