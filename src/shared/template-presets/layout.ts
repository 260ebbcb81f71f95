import type { z } from 'zod';
import type { documentTemplateSchema } from '../schemas/template';

type TemplateInput = z.input<typeof documentTemplateSchema>;
/** What a ready-made template sets: the look only. Numbering and predefined texts are the business's own and stay. */
export type Layout = Omit<TemplateInput, 'numbering' | 'customer_numbering' | 'texts'>;

export const border = (style: 'solid' | 'dotted' | 'dashed', color: string, width = 1) => ({ style, color, width });
