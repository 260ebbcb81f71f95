import type { z } from 'zod';
import { fieldMessages } from '../../shared/validation-messages';

/** Validates form values with the same Zod schema the server uses; one message per field (the first). */
export function fieldErrors<S extends z.ZodType>(schema: S, values: unknown): { data: z.infer<S> | null; errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  return { data: null, errors: fieldMessages(result.error.issues, 1) };
}
