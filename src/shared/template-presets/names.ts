/**
 * The ready-made templates' names and looks, kept apart from their layouts (index.ts): the designer lists them when it
 * first draws, and the layouts and the template schema they are checked against come only when one is applied.
 */
export const TEMPLATE_PRESET_NAMES = [
  { id: 'classique', label: 'Classique', description: 'Logo et entreprise à gauche, client à droite, tableau sobre' },
  { id: 'moderne', label: 'Moderne', description: 'Grand titre en couleur, trois colonnes, tableau à en-tête bleu' },
  { id: 'epure', label: 'Épuré', description: 'Beaucoup de blanc, filets fins, sans fond de couleur' },
] as const;

export type TemplatePresetName = (typeof TEMPLATE_PRESET_NAMES)[number];
export type TemplatePresetId = TemplatePresetName['id'];
