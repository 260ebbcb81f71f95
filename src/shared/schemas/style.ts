import { z } from 'zod';

/** Option lists for the template designer, with their French labels. */
export const FONT_SIZE_OPTIONS = [
  { value: 'default', label: 'Par défaut' },
  ...Array.from({ length: 91 }, (_, i) => ({ value: i + 10, label: `${i + 10} px` })),
];
export const BORDER_STYLE_OPTIONS = [
  { value: 'default', label: 'Par défaut' },
  { value: 'solid', label: 'Continu' },
  { value: 'dotted', label: 'Pointillé' },
  { value: 'dashed', label: 'Tirets' },
] as const;
export const FONT_STYLE_OPTIONS = [
  { value: 'default', label: 'Par défaut' },
  { value: 'italic', label: 'Italique' },
] as const;
export const TEXT_TRANSFORM_OPTIONS = [
  { value: 'default', label: 'Par défaut' },
  { value: 'uppercase', label: 'Majuscules' },
  { value: 'lowercase', label: 'Minuscules' },
] as const;
export const FONT_WEIGHT_OPTIONS = [
  { value: 'default', label: 'Par défaut' },
  { value: '100', label: '100 — Fin' },
  { value: '200', label: '200 — Très léger' },
  { value: '300', label: '300 — Léger' },
  { value: '400', label: '400 — Normal' },
  { value: '500', label: '500 — Moyen' },
  { value: '600', label: '600 — Demi-gras' },
  { value: '700', label: '700 — Gras' },
  { value: '800', label: '800 — Très gras' },
  { value: '900', label: '900 — Noir' },
] as const;

const colorSchema = z.string().regex(/^(#[0-9a-fA-F]{3,8}|)$/, 'Couleur attendue au format #RRGGBB');
const px = z.number().min(0).max(200);
export const boxSchema = z.object({
  top: px.default(0).meta({ label: 'haut' }),
  right: px.default(0).meta({ label: 'droite' }),
  bottom: px.default(0).meta({ label: 'bas' }),
  left: px.default(0).meta({ label: 'gauche' }),
});
export const borderSchema = z.object({
  style: z.enum(['default', 'solid', 'dotted', 'dashed']).default('default').meta({ label: 'style' }),
  width: z.number().min(0).max(10).default(1).meta({ label: 'épaisseur' }),
  color: colorSchema.default('').meta({ label: 'couleur' }),
});

/** Style properties; every one optional: an absent property inherits. */
export const styleSchema = z
  .object({
    border_collapse: z.enum(['collapse', 'separate']).meta({ label: 'fusion des bordures' }),
    border_spacing: z.number().min(0).max(20).meta({ label: 'espacement des bordures' }),
    margin: boxSchema.meta({ label: 'marge extérieure' }),
    padding: boxSchema.meta({ label: 'marge intérieure' }),
    border_top: borderSchema.meta({ label: 'bordure haute' }),
    border_right: borderSchema.meta({ label: 'bordure droite' }),
    border_bottom: borderSchema.meta({ label: 'bordure basse' }),
    border_left: borderSchema.meta({ label: 'bordure gauche' }),
    vertical_align: z.enum(['top', 'middle', 'bottom']).meta({ label: 'alignement vertical' }),
    color: colorSchema.meta({ label: 'couleur' }),
    background_color: colorSchema.meta({ label: 'couleur de fond' }),
    text_align: z.enum(['left', 'center', 'right', 'justify']).meta({ label: 'alignement du texte' }),
    text_transform: z.enum(['default', 'uppercase', 'lowercase']).meta({ label: 'casse' }),
    font_size: z.union([z.literal('default'), z.number().int().min(10).max(100)]).meta({ label: 'taille de police' }),
    font_weight: z.enum(['default', '100', '200', '300', '400', '500', '600', '700', '800', '900']).meta({ label: 'graisse' }),
    font_style: z.enum(['default', 'italic']).meta({ label: 'style de police' }),
  })
  .partial();
export type Style = z.infer<typeof styleSchema>;
