import { documentTemplateSchema, type DocumentTemplate } from '../schemas/template';
import { classique } from './classique';
import type { Layout } from './layout';
import { moderne } from './moderne';
import { epure } from './epure';
import { TEMPLATE_PRESET_NAMES, type TemplatePresetId } from './names';

export interface TemplatePreset {
  id: TemplatePresetId;
  label: string;
  description: string;
  layout: Layout;
}

const LAYOUTS: Record<TemplatePresetId, Layout> = { classique, moderne, epure };

/** The ready-made templates of the designer (Paramètres → Apparence), to start from and then adjust. */
export const TEMPLATE_PRESETS: readonly TemplatePreset[] = TEMPLATE_PRESET_NAMES.map((name) => ({ ...name, layout: LAYOUTS[name.id] }));

/** The current template with a preset's look: margins, fonts, fold line, elements and table; numbering and texts kept. */
export function applyPreset(current: DocumentTemplate, id: TemplatePreset['id']): DocumentTemplate {
  const preset = TEMPLATE_PRESETS.find((p) => p.id === id);
  if (!preset) return current;
  return documentTemplateSchema.parse({
    ...preset.layout,
    numbering: current.numbering,
    customer_numbering: current.customer_numbering,
    texts: current.texts,
  });
}
