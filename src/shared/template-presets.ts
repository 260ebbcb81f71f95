import type { z } from 'zod';
import { documentTemplateSchema, type DocumentTemplate } from './schemas/template';

type TemplateInput = z.input<typeof documentTemplateSchema>;
/** What a ready-made template sets: the look only. Numbering and predefined texts are the business's own and stay. */
type Layout = Omit<TemplateInput, 'numbering' | 'customer_numbering' | 'texts'>;

export interface TemplatePreset {
  id: 'classique' | 'moderne' | 'epure';
  label: string;
  description: string;
  layout: Layout;
}

const border = (style: 'solid' | 'dotted' | 'dashed', color: string, width = 1) => ({ style, color, width });

const classique: Layout = {
  margins: { first_page: { top: 1.5, bottom: 1.5, left: 1.8, right: 1.8 }, following_pages: { top: 1.5, bottom: 1.5, left: 1.8, right: 1.8 } },
  font_family: 'Karla',
  font_size: 10,
  line_height: 1.4,
  // NF Z 11-001 window envelopes: the fold mark helps folding in three.
  fold_line: { status: true, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      columns: [
        { cols: 6, elements: [{ type: 'logo', size: 80 }, { type: 'organization' }] },
        { cols: 5, offset: 1, text_align: 'right', elements: [{ type: 'document_name', style: { font_size: 22, font_weight: '700' } }, { type: 'document_info', layout: 1 }] },
      ],
    },
    { columns: [{ cols: 6, offset: 6, elements: [{ type: 'customer' }, { type: 'shipping' }] }] },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [
    { justify: 'space-between', columns: [{ cols: 6, elements: [{ type: 'document_number' }] }, { cols: 6, text_align: 'right', elements: [{ type: 'page_number' }] }] },
  ],
  footer: [
    { columns: [{ cols: 12, elements: [{ type: 'footer_note' }, { type: 'separator', border_style: 'solid', color: '#D0D5DD' }] }] },
    { justify: 'space-between', columns: [{ cols: 10, elements: [{ type: 'identifications' }] }, { cols: 2, text_align: 'right', elements: [{ type: 'page_number' }] }] },
  ],
  table: {
    cols: [
      { type: 'position', label: '#', width: 6 },
      { type: 'description', label: 'Désignation', width: 40, show_item: true, show_sku: false },
      { type: 'quantity_unit', label: 'Qté', width: 12 },
      { type: 'unit_price', label: 'Prix unitaire HT', width: 14 },
      { type: 'vat', label: 'TVA', width: 8 },
      { type: 'discount', label: 'Remise', width: 8, visible: false },
      { type: 'total_price', label: 'Total HT', width: 20 },
    ],
    style: {
      general: {},
      thead: { background_color: '#F0F2F5', font_weight: '700', border_bottom: border('solid', '#C4CAD1') },
      tbody: { odd: {}, even: { background_color: '#FAFAFB' } },
      total: { font_weight: '700', border_top: border('solid', '#C4CAD1') },
      tfoot: {},
    },
  },
};

const ACCENT = '#1D3FD7';
const moderne: Layout = {
  margins: { first_page: { top: 1.2, bottom: 1.2, left: 1.5, right: 1.5 }, following_pages: { top: 1.2, bottom: 1.2, left: 1.5, right: 1.5 } },
  font_family: 'Figtree',
  font_size: 10,
  line_height: 1.45,
  fold_line: { status: false, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      align: 'center',
      columns: [
        { cols: 7, elements: [{ type: 'document_name', style: { font_size: 30, font_weight: '800', color: ACCENT } }, { type: 'document_number', style: { font_size: 13, color: '#5B6470' } }] },
        { cols: 5, text_align: 'right', align: 'end', elements: [{ type: 'logo', size: 70 }] },
      ],
    },
    { columns: [{ cols: 12, elements: [{ type: 'separator', border_style: 'solid', color: ACCENT, width: 2 }] }] },
    {
      justify: 'space-between',
      columns: [
        { cols: 4, elements: [{ type: 'organization' }] },
        { cols: 4, elements: [{ type: 'customer' }] },
        { cols: 4, text_align: 'right', elements: [{ type: 'document_info', layout: 2, display: { payment_method: true } }] },
      ],
    },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [
    { justify: 'space-between', columns: [{ cols: 8, elements: [{ type: 'document_name', style: { color: ACCENT, font_weight: '700' } }, { type: 'document_number' }] }, { cols: 4, text_align: 'right', elements: [{ type: 'page_number' }] }] },
  ],
  footer: [
    { columns: [{ cols: 12, elements: [{ type: 'footer_note' }] }] },
    { columns: [{ cols: 12, elements: [{ type: 'separator', border_style: 'solid', color: ACCENT, width: 1 }] }] },
    { justify: 'space-between', columns: [{ cols: 9, elements: [{ type: 'identifications' }, { type: 'additional_info' }] }, { cols: 3, text_align: 'right', elements: [{ type: 'page_number' }] }] },
  ],
  table: {
    cols: [
      { type: 'description', label: 'Description', width: 46, show_item: true, show_sku: true },
      { type: 'quantity', label: 'Qté', width: 9 },
      { type: 'unit', label: 'Unité', width: 9 },
      { type: 'unit_price', label: 'Prix HT', width: 13 },
      { type: 'vat', label: 'TVA', width: 8 },
      { type: 'total_price', label: 'Montant HT', width: 15 },
    ],
    style: {
      general: {},
      thead: { background_color: ACCENT, color: '#FFFFFF', font_weight: '600', text_transform: 'uppercase', font_size: 10 },
      tbody: { odd: {}, even: { background_color: '#F3F6FE' } },
      total: { background_color: '#EEF4FF', color: ACCENT, font_weight: '700', font_size: 13 },
      tfoot: {},
    },
  },
};

const epure: Layout = {
  margins: { first_page: { top: 2, bottom: 2, left: 2.2, right: 2.2 }, following_pages: { top: 2, bottom: 2, left: 2.2, right: 2.2 } },
  font_family: 'Roboto',
  font_size: 9.5,
  line_height: 1.5,
  fold_line: { status: false, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      columns: [
        { cols: 6, elements: [{ type: 'document_name', style: { font_size: 18, font_weight: '300', text_transform: 'uppercase' } }, { type: 'organization' }] },
        { cols: 5, offset: 1, text_align: 'right', elements: [{ type: 'document_info', layout: 3, display: { customer_id: false } }] },
      ],
    },
    { columns: [{ cols: 6, elements: [{ type: 'customer' }] }] },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [{ columns: [{ cols: 12, text_align: 'right', elements: [{ type: 'page_number' }] }] }],
  footer: [
    { columns: [{ cols: 12, elements: [{ type: 'footer_note' }] }] },
    { justify: 'center', columns: [{ cols: 12, text_align: 'center', elements: [{ type: 'identifications', style: { color: '#6B7280' } }, { type: 'page_number', style: { color: '#6B7280' } }] }] },
  ],
  table: {
    cols: [
      { type: 'description', label: 'Désignation', width: 52, show_item: true, show_sku: false },
      { type: 'quantity_unit', label: 'Quantité', width: 14 },
      { type: 'unit_price', label: 'Prix unitaire', width: 16 },
      { type: 'vat', label: 'TVA', width: 8, visible: false },
      { type: 'total_price', label: 'Total HT', width: 18 },
    ],
    style: {
      general: {},
      thead: { font_weight: '600', text_transform: 'uppercase', font_size: 10, color: '#5B6470', border_bottom: border('solid', '#1B1F24') },
      tbody: { odd: { border_bottom: border('dotted', '#D0D5DD') }, even: { border_bottom: border('dotted', '#D0D5DD') } },
      total: { font_weight: '600', border_top: border('solid', '#1B1F24') },
      tfoot: {},
    },
  },
};

/** The ready-made templates of the designer (Paramètres → Apparence), to start from and then adjust. */
export const TEMPLATE_PRESETS: readonly TemplatePreset[] = [
  { id: 'classique', label: 'Classique', description: 'Logo et entreprise à gauche, client à droite, tableau sobre', layout: classique },
  { id: 'moderne', label: 'Moderne', description: 'Grand titre en couleur, trois colonnes, tableau à en-tête bleu', layout: moderne },
  { id: 'epure', label: 'Épuré', description: 'Beaucoup de blanc, filets fins, sans fond de couleur', layout: epure },
];

/** The current template with a preset's look: margins, fonts, fold line, elements and table; numbering and texts kept. */
export function applyPreset(current: DocumentTemplate, id: TemplatePreset['id']): DocumentTemplate {
  const preset = TEMPLATE_PRESETS.find((p) => p.id === id);
  if (!preset) return current;
  return documentTemplateSchema.parse({ ...preset.layout, numbering: current.numbering, customer_numbering: current.customer_numbering, texts: current.texts });
}
