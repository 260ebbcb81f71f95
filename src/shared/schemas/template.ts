import { z } from 'zod';
import { DOCUMENT_TYPES } from './document';
import { DOCUMENT_TYPE_TABLE } from '../document-types';
import { styleSchema } from './style';

const numberingSchema = z.object({
  prefix: z.string().max(40).default(''),
  suffix: z.string().max(40).default(''),
  digit_count: z.number().int().min(0).max(12).default(4),
});
const customerNumberingSchema = z.object({
  prefix: z.string().max(20).default('CL'),
  separator: z.string().max(3).default('-'),
  digit_count: z.number().int().min(0).max(12).default(5),
});

const marginsSchema = z.object({
  top: z.number().min(0).max(10).default(1.5),
  bottom: z.number().min(0).max(10).default(1.5),
  left: z.number().min(0).max(10).default(1.5),
  right: z.number().min(0).max(10).default(1.5),
});

const base = { style: styleSchema.optional() };
const displayFlags = z.object({
  document_number: z.boolean().default(true),
  date: z.boolean().default(true),
  maturity: z.boolean().default(true),
  customer_id: z.boolean().default(true),
  payment_method: z.boolean().default(false),
  total_document: z.boolean().default(true),
});

/** SPEC §3 template element types, each with its options. */
export const templateElementSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('document_name'), ...base }),
  z.object({ type: z.literal('logo'), url: z.string().max(500).default(''), size: z.number().min(1).max(100).default(100), ...base }),
  z.object({
    type: z.literal('icon'),
    name: z.string().max(60),
    size: z.number().min(8).max(200).default(24),
    color: z.string().max(20).default(''),
    ...base,
  }),
  z.object({
    type: z.literal('document_info'),
    layout: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
    display: displayFlags.prefault({}),
    ...base,
  }),
  z.object({ type: z.literal('organization'), ...base }),
  z.object({ type: z.literal('customer'), ...base }),
  z.object({ type: z.literal('shipping'), ...base }),
  z.object({ type: z.literal('identifications'), ...base }),
  z.object({ type: z.literal('additional_info'), ...base }),
  z.object({ type: z.literal('text'), content: z.string().max(5000).default(''), ...base }),
  z.object({ type: z.literal('document_number'), ...base }),
  z.object({ type: z.literal('page_number'), ...base }),
  z.object({
    type: z.literal('separator'),
    border_style: z.enum(['default', 'solid', 'dotted', 'dashed']).default('solid'),
    color: z.string().max(20).default('#D0D5DD'),
    width: z.number().min(0).max(10).default(1),
    el_width: z.number().min(1).max(100).default(100),
    align: z.enum(['left', 'center', 'right']).default('center'),
    ...base,
  }),
  z.object({ type: z.literal('header_note'), ...base }),
  z.object({ type: z.literal('footer_note'), ...base }),
]);
export type TemplateElement = z.infer<typeof templateElementSchema>;
export const TEMPLATE_ELEMENT_TYPES = templateElementSchema.options.map((o) => o.shape.type.value);

export const templateColumnSchema = z.object({
  cols: z.number().int().min(1).max(12).default(12),
  offset: z.number().int().min(0).max(11).default(0),
  text_align: z.enum(['left', 'center', 'right']).default('left'),
  align: z.enum(['start', 'center', 'end']).default('start'),
  style: styleSchema.optional(),
  elements: z.array(templateElementSchema).max(20).default([]),
});
export const templateRowSchema = z.object({
  align: z.enum(['start', 'center', 'end', 'stretch']).default('start'),
  justify: z.enum(['start', 'center', 'end', 'space-between', 'space-around']).default('start'),
  columns: z.array(templateColumnSchema).max(12).default([]),
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
  type: z.enum(TABLE_COLUMN_TYPES),
  label: z.string().max(60),
  visible: z.boolean().default(true),
  /** Share of the table width, in percent. */
  width: z.number().min(0).max(100).optional(),
  show_item: z.boolean().optional(),
  show_sku: z.boolean().optional(),
  style: styleSchema.optional(),
});

const typeTexts = z.object(
  Object.fromEntries(
    DOCUMENT_TYPES.map((t) => [
      t,
      z.object({ header: z.string().max(5000).default(''), footer: z.string().max(5000).default('') }).prefault({}),
    ]),
  ) as Record<
    (typeof DOCUMENT_TYPES)[number],
    z.ZodPrefault<z.ZodObject<{ header: z.ZodDefault<z.ZodString>; footer: z.ZodDefault<z.ZodString> }>>
  >,
);

const typeNumbering = z.object(
  Object.fromEntries(DOCUMENT_TYPES.map((t) => [t, numberingSchema.prefault({ prefix: DOCUMENT_TYPE_TABLE[t].numberPrefix })])) as Record<
    (typeof DOCUMENT_TYPES)[number],
    z.ZodPrefault<typeof numberingSchema>
  >,
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

/** SPEC §3 document template settings, served on GET /api/settings?key=document. */
export const documentTemplateSchema = z.object({
  numbering: typeNumbering.prefault({}),
  customer_numbering: customerNumberingSchema.prefault({}),
  texts: typeTexts.prefault({}),
  margins: z.object({ first_page: marginsSchema.prefault({}), following_pages: marginsSchema.prefault({}) }).prefault({}),
  font_family: z.string().max(60).default('Karla'),
  font_size: z.number().min(6).max(24).default(10),
  line_height: z.number().min(1).max(3).default(1.4),
  fold_line: z
    .object({
      status: z.boolean().default(false),
      only_first_page: z.boolean().default(true),
      alignment: z.enum(['left', 'right']).default('left'),
    })
    .prefault({}),
  header: z.array(templateRowSchema).max(20).prefault(DEFAULT_HEADER),
  elements_following_pages: z.array(templateRowSchema).max(20).prefault(DEFAULT_FOLLOWING),
  footer: z.array(templateRowSchema).max(20).prefault(DEFAULT_FOOTER),
  table: z
    .object({
      cols: z.array(tableColumnSchema).max(12).prefault(DEFAULT_COLUMNS),
      style: z
        .object({
          general: styleSchema.default({}),
          thead: styleSchema.default({ background_color: '#F0F2F5', font_weight: '700' }),
          tbody: z.object({ odd: styleSchema.default({}), even: styleSchema.default({ background_color: '#FAFAFB' }) }).prefault({}),
          total: styleSchema.default({ font_weight: '700' }),
          tfoot: styleSchema.default({}),
        })
        .prefault({}),
      totals: z
        .object({
          subtotal: z.boolean().default(true),
          discount: z.boolean().default(true),
          taxes: z.boolean().default(true),
          shipping: z.boolean().default(true),
          total: z.boolean().default(true),
          deposits: z.boolean().default(true),
          paid: z.boolean().default(true),
          due: z.boolean().default(true),
        })
        .prefault({}),
      show_subtotal: z.boolean().default(false),
      show_subtotal_previous: z.boolean().default(false),
    })
    .prefault({}),
});
export type DocumentTemplate = z.infer<typeof documentTemplateSchema>;

export const defaultDocumentTemplate = (): DocumentTemplate => documentTemplateSchema.parse({});
