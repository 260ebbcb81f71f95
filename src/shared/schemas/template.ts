import { z } from 'zod';
import { DOCUMENT_TYPES } from './document';
import { DOCUMENT_TYPE_TABLE } from '../document-types';
import { styleSchema } from './style';

// Labels are the segments of a path ('Marges › première page › haut', see validation-messages.ts): lower case
// but for the top-level fields.
const numberingSchema = z.object({
  prefix: z.string().max(40).default('').meta({ label: 'préfixe' }),
  suffix: z.string().max(40).default('').meta({ label: 'suffixe' }),
  digit_count: z.number().int().min(0).max(12).default(4).meta({ label: 'nombre de chiffres' }),
});
const customerNumberingSchema = z.object({
  prefix: z.string().max(20).default('CL').meta({ label: 'préfixe' }),
  separator: z.string().max(3).default('-').meta({ label: 'séparateur' }),
  digit_count: z.number().int().min(0).max(12).default(5).meta({ label: 'nombre de chiffres' }),
});

const margin = z.number().min(0).max(10).default(1.5);
const marginsSchema = z.object({
  top: margin.meta({ label: 'haut' }),
  bottom: margin.meta({ label: 'bas' }),
  left: margin.meta({ label: 'gauche' }),
  right: margin.meta({ label: 'droite' }),
});

const base = { style: styleSchema.optional().meta({ label: 'style' }) };
const elementType = <T extends string>(type: T) => z.literal(type).meta({ label: 'type' });
const displayFlags = z.object({
  document_number: z.boolean().default(true),
  date: z.boolean().default(true),
  maturity: z.boolean().default(true),
  customer_id: z.boolean().default(true),
  payment_method: z.boolean().default(false),
  total_document: z.boolean().default(true),
});

/** Template element types, each with its options. */
export const templateElementSchema = z.discriminatedUnion('type', [
  z.object({ type: elementType('document_name'), ...base }),
  z.object({
    type: elementType('logo'),
    url: z.string().max(500).default('').meta({ label: 'adresse de l’image' }),
    size: z.number().min(1).max(100).default(100).meta({ label: 'taille' }),
    ...base,
  }),
  z.object({
    type: elementType('icon'),
    name: z.string().max(60).meta({ label: 'nom' }),
    size: z.number().min(8).max(200).default(24).meta({ label: 'taille' }),
    color: z.string().max(20).default('').meta({ label: 'couleur' }),
    ...base,
  }),
  z.object({
    type: elementType('document_info'),
    layout: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .default(1)
      .meta({ label: 'disposition' }),
    display: displayFlags.prefault({}).meta({ label: 'affichage' }),
    ...base,
  }),
  z.object({ type: elementType('organization'), ...base }),
  z.object({ type: elementType('customer'), ...base }),
  z.object({ type: elementType('shipping'), ...base }),
  z.object({ type: elementType('identifications'), ...base }),
  z.object({ type: elementType('additional_info'), ...base }),
  z.object({ type: elementType('text'), content: z.string().max(5000).default('').meta({ label: 'texte' }), ...base }),
  z.object({ type: elementType('document_number'), ...base }),
  z.object({ type: elementType('page_number'), ...base }),
  z.object({
    type: elementType('separator'),
    border_style: z.enum(['default', 'solid', 'dotted', 'dashed']).default('solid').meta({ label: 'style de bordure' }),
    color: z.string().max(20).default('#D0D5DD').meta({ label: 'couleur' }),
    width: z.number().min(0).max(10).default(1).meta({ label: 'épaisseur' }),
    el_width: z.number().min(1).max(100).default(100).meta({ label: 'longueur' }),
    align: z.enum(['left', 'center', 'right']).default('center').meta({ label: 'alignement' }),
    ...base,
  }),
  z.object({ type: elementType('header_note'), ...base }),
  z.object({ type: elementType('footer_note'), ...base }),
]);
export type TemplateElement = z.infer<typeof templateElementSchema>;
export const TEMPLATE_ELEMENT_TYPES = templateElementSchema.options.map((o) => o.shape.type.value);

export const templateColumnSchema = z.object({
  cols: z.number().int().min(1).max(12).default(12).meta({ label: 'largeur (sur 12)' }),
  offset: z.number().int().min(0).max(11).default(0).meta({ label: 'décalage' }),
  text_align: z.enum(['left', 'center', 'right']).default('left').meta({ label: 'alignement du texte' }),
  align: z.enum(['start', 'center', 'end']).default('start').meta({ label: 'alignement' }),
  style: styleSchema.optional().meta({ label: 'style' }),
  elements: z.array(templateElementSchema).max(20).default([]).meta({ label: 'éléments', itemLabel: 'élément' }),
});
export const templateRowSchema = z.object({
  align: z.enum(['start', 'center', 'end', 'stretch']).default('start').meta({ label: 'alignement' }),
  justify: z.enum(['start', 'center', 'end', 'space-between', 'space-around']).default('start').meta({ label: 'répartition' }),
  columns: z.array(templateColumnSchema).max(12).default([]).meta({ label: 'colonnes', itemLabel: 'colonne' }),
});
export type TemplateRow = z.infer<typeof templateRowSchema>;

export const TABLE_COLUMN_TYPES = [
  'position',
  'description',
  'quantity',
  'unit',
  'quantity_unit',
  'unit_price',
  'vat',
  'discount',
  'total_price',
] as const;
export const tableColumnSchema = z.object({
  type: z.enum(TABLE_COLUMN_TYPES).meta({ label: 'type' }),
  label: z.string().max(60).meta({ label: 'intitulé' }),
  visible: z.boolean().default(true).meta({ label: 'visible' }),
  /** Share of the table width, in percent. */
  width: z.number().min(0).max(100).optional().meta({ label: 'largeur (%)' }),
  show_item: z.boolean().optional().meta({ label: 'nom de l’article' }),
  show_sku: z.boolean().optional().meta({ label: 'référence' }),
  style: styleSchema.optional().meta({ label: 'style' }),
});

const typeTexts = z.object(
  Object.fromEntries(
    DOCUMENT_TYPES.map((t) => [
      t,
      z
        .object({
          header: z.string().max(5000).default('').meta({ label: 'en-tête' }),
          footer: z.string().max(5000).default('').meta({ label: 'pied de page' }),
        })
        .prefault({})
        .meta({ label: DOCUMENT_TYPE_TABLE[t].templateLabel }),
    ]),
  ) as Record<
    (typeof DOCUMENT_TYPES)[number],
    z.ZodPrefault<z.ZodObject<{ header: z.ZodDefault<z.ZodString>; footer: z.ZodDefault<z.ZodString> }>>
  >,
);

const typeNumbering = z.object(
  Object.fromEntries(
    DOCUMENT_TYPES.map((t) => [
      t,
      numberingSchema.prefault({ prefix: DOCUMENT_TYPE_TABLE[t].numberPrefix }).meta({ label: DOCUMENT_TYPE_TABLE[t].templateLabel }),
    ]),
  ) as Record<(typeof DOCUMENT_TYPES)[number], z.ZodPrefault<typeof numberingSchema>>,
);

const DEFAULT_COLUMNS: z.input<typeof tableColumnSchema>[] = [
  { type: 'position', label: '#', width: 6 },
  { type: 'description', label: 'Désignation', width: 40, show_item: true, show_sku: false },
  { type: 'quantity_unit', label: 'Qté', width: 12 },
  { type: 'unit_price', label: 'Prix unitaire HT', width: 14 },
  { type: 'vat', label: 'TVA', width: 8 },
  { type: 'discount', label: 'Remise', width: 8, visible: false },
  { type: 'total_price', label: 'Total HT', width: 12 },
];

const DEFAULT_HEADER: z.input<typeof templateRowSchema>[] = [
  {
    justify: 'space-between',
    columns: [
      { cols: 6, elements: [{ type: 'logo' }, { type: 'organization' }] },
      { cols: 5, offset: 1, text_align: 'right', elements: [{ type: 'document_name' }, { type: 'document_info', layout: 1 }] },
    ],
  },
  { columns: [{ cols: 6, offset: 6, elements: [{ type: 'customer' }] }] },
  { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
];
const DEFAULT_FOLLOWING: z.input<typeof templateRowSchema>[] = [
  {
    justify: 'space-between',
    columns: [
      { cols: 6, elements: [{ type: 'document_number' }] },
      { cols: 6, text_align: 'right', elements: [{ type: 'page_number' }] },
    ],
  },
];
const DEFAULT_FOOTER: z.input<typeof templateRowSchema>[] = [
  { columns: [{ cols: 12, elements: [{ type: 'footer_note' }, { type: 'separator' }] }] },
  {
    justify: 'space-between',
    columns: [
      { cols: 10, elements: [{ type: 'identifications' }] },
      { cols: 2, text_align: 'right', elements: [{ type: 'page_number' }] },
    ],
  },
];

/** Document template settings, served on GET /api/settings?key=document. */
export const documentTemplateSchema = z
  .object({
    numbering: typeNumbering.prefault({}).meta({ label: 'Numérotation' }),
    customer_numbering: customerNumberingSchema.prefault({}).meta({ label: 'Numérotation des clients' }),
    texts: typeTexts.prefault({}).meta({ label: 'Textes prédéfinis' }),
    margins: z
      .object({
        first_page: marginsSchema.prefault({}).meta({ label: 'première page' }),
        following_pages: marginsSchema.prefault({}).meta({ label: 'pages suivantes' }),
      })
      .prefault({})
      .meta({ label: 'Marges' }),
    font_family: z.string().max(60).default('Karla').meta({ label: 'Police' }),
    font_size: z.number().min(6).max(24).default(10).meta({ label: 'Taille de police' }),
    line_height: z.number().min(1).max(3).default(1.4).meta({ label: 'Interligne' }),
    fold_line: z
      .object({
        status: z.boolean().default(false).meta({ label: 'affichée' }),
        only_first_page: z.boolean().default(true).meta({ label: 'première page seulement' }),
        alignment: z.enum(['left', 'right']).default('left').meta({ label: 'position' }),
      })
      .prefault({})
      .meta({ label: 'Ligne de pliage' }),
    header: z.array(templateRowSchema).max(20).prefault(DEFAULT_HEADER).meta({ label: 'En-tête' }),
    elements_following_pages: z.array(templateRowSchema).max(20).prefault(DEFAULT_FOLLOWING).meta({ label: 'Pages suivantes' }),
    footer: z.array(templateRowSchema).max(20).prefault(DEFAULT_FOOTER).meta({ label: 'Pied de page' }),
    table: z
      .object({
        cols: z.array(tableColumnSchema).max(12).prefault(DEFAULT_COLUMNS).meta({ label: 'colonnes', itemLabel: 'colonne' }),
        style: z
          .object({
            general: styleSchema.default({}).meta({ label: 'général' }),
            thead: styleSchema.default({ background_color: '#F0F2F5', font_weight: '700' }).meta({ label: 'en-tête du tableau' }),
            tbody: z
              .object({
                odd: styleSchema.default({}).meta({ label: 'impaires' }),
                even: styleSchema.default({ background_color: '#FAFAFB' }).meta({ label: 'paires' }),
              })
              .prefault({})
              .meta({ label: 'lignes' }),
            total: styleSchema.default({ font_weight: '700' }).meta({ label: 'total' }),
            tfoot: styleSchema.default({}).meta({ label: 'pied du tableau' }),
          })
          .prefault({})
          .meta({ label: 'style' }),
        totals: z
          .object({
            subtotal: z.boolean().default(true),
            discount: z.boolean().default(true),
            taxes: z.boolean().default(true),
            shipping: z.boolean().default(true),
            total: z.boolean().default(true).meta({ label: 'total' }),
            deposits: z.boolean().default(true),
            paid: z.boolean().default(true),
            due: z.boolean().default(true),
          })
          .prefault({})
          .meta({ label: 'totaux' }),
        show_subtotal: z.boolean().default(false).meta({ label: 'sous-total en bas de page' }),
        show_subtotal_previous: z.boolean().default(false).meta({ label: 'report du sous-total' }),
      })
      .prefault({})
      .meta({ label: 'Tableau' }),
  })
  // A template's fields are named by their whole path: a `top` may be a margin's or a padding's.
  .meta({ pathLabels: true });
export type DocumentTemplate = z.infer<typeof documentTemplateSchema>;

export const defaultDocumentTemplate = (): DocumentTemplate => documentTemplateSchema.parse({});
