import { documentTemplateSchema, type DocumentTemplate } from '../schemas/template';
import { classique } from './classique';
import type { Layout } from './layout';
import { moderne } from './moderne';
import { epure } from './epure';

export interface TemplatePreset {
  id: 'classique' | 'moderne' | 'epure';
  label: string;
  description: string;
  layout: Layout;
}

/** The ready-made templates of the designer (Paramètres → Apparence), to start from and then adjust. */
export const TEMPLATE_PRESETS: readonly TemplatePreset[] = [
  {
    id: 'classique',
    label: 'Classique',
    description: 'Logo et entreprise à gauche, client à droite, tableau sobre',
    layout: classique,
  },
  {
    id: 'moderne',
    label: 'Moderne',
    description: 'Grand titre en couleur, trois colonnes, tableau à en-tête bleu',
    layout: moderne,
  },
  {
    id: 'epure',
    label: 'Épuré',
    description: 'Beaucoup de blanc, filets fins, sans fond de couleur',
    layout: epure,
  },
];

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
