import { border, type Layout } from './layout';

export const classique: Layout = {
  margins: {
    first_page: { top: 1.5, bottom: 1.5, left: 1.8, right: 1.8 },
    following_pages: { top: 1.5, bottom: 1.5, left: 1.8, right: 1.8 },
  },
  font_family: 'Karla',
  font_size: 10,
  line_height: 1.4,
  // NF Z 11-001 window envelopes: the fold mark helps folding in three.
  fold_line: { status: true, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      columns: [
        {
          cols: 6,
          elements: [{ type: 'logo', size: 80 }, { type: 'organization' }],
        },
        {
          cols: 5,
          offset: 1,
          text_align: 'right',
          elements: [
            {
              type: 'document_name',
              style: { font_size: 22, font_weight: '700' },
            },
            { type: 'document_info', layout: 1 },
          ],
        },
      ],
    },
    {
      columns: [
        {
          cols: 6,
          offset: 6,
          elements: [{ type: 'customer' }, { type: 'shipping' }],
        },
      ],
    },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [
    {
      justify: 'space-between',
      columns: [
        { cols: 6, elements: [{ type: 'document_number' }] },
        { cols: 6, text_align: 'right', elements: [{ type: 'page_number' }] },
      ],
    },
  ],
  footer: [
    {
      columns: [
        {
          cols: 12,
          elements: [{ type: 'footer_note' }, { type: 'separator', border_style: 'solid', color: '#D0D5DD' }],
        },
      ],
    },
    {
      justify: 'space-between',
      columns: [
        { cols: 10, elements: [{ type: 'identifications' }] },
        { cols: 2, text_align: 'right', elements: [{ type: 'page_number' }] },
      ],
    },
  ],
  table: {
    cols: [
      { type: 'position', label: '#', width: 5 },
      {
        type: 'description',
        label: 'Désignation',
        width: 38,
        show_item: true,
        show_sku: false,
      },
      { type: 'quantity_unit', label: 'Qté', width: 12 },
      { type: 'unit_price', label: 'Prix unitaire HT', width: 17 },
      { type: 'vat', label: 'TVA', width: 10 },
      { type: 'discount', label: 'Remise', width: 8, visible: false },
      { type: 'total_price', label: 'Total HT', width: 18 },
    ],
    style: {
      general: {},
      thead: {
        background_color: '#F0F2F5',
        font_weight: '700',
        border_bottom: border('solid', '#C4CAD1'),
      },
      tbody: { odd: {}, even: { background_color: '#FAFAFB' } },
      total: { font_weight: '700', border_top: border('solid', '#C4CAD1') },
      tfoot: {},
    },
  },
};
