import type { Layout } from './layout';

const ACCENT = '#1D3FD7';
export const moderne: Layout = {
  margins: {
    first_page: { top: 1.2, bottom: 1.2, left: 1.5, right: 1.5 },
    following_pages: { top: 1.2, bottom: 1.2, left: 1.5, right: 1.5 },
  },
  font_family: 'Figtree',
  font_size: 10,
  line_height: 1.45,
  fold_line: { status: false, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      align: 'center',
      columns: [
        {
          cols: 7,
          elements: [
            {
              type: 'document_name',
              style: { font_size: 30, font_weight: '800', color: ACCENT },
            },
            {
              type: 'document_number',
              style: { font_size: 13, color: '#5B6470' },
            },
          ],
        },
        {
          cols: 5,
          text_align: 'right',
          align: 'end',
          elements: [{ type: 'logo', size: 70 }],
        },
      ],
    },
    {
      columns: [
        {
          cols: 12,
          elements: [
            {
              type: 'separator',
              border_style: 'solid',
              color: ACCENT,
              width: 2,
            },
          ],
        },
      ],
    },
    {
      justify: 'space-between',
      columns: [
        { cols: 3, elements: [{ type: 'organization' }] },
        { cols: 5, elements: [{ type: 'customer' }] },
        {
          cols: 4,
          text_align: 'right',
          elements: [
            {
              type: 'document_info',
              layout: 2,
              display: { payment_method: true },
            },
          ],
        },
      ],
    },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [
    {
      justify: 'space-between',
      columns: [
        {
          cols: 8,
          elements: [
            {
              type: 'document_name',
              style: { color: ACCENT, font_weight: '700' },
            },
            { type: 'document_number' },
          ],
        },
        { cols: 4, text_align: 'right', elements: [{ type: 'page_number' }] },
      ],
    },
  ],
  footer: [
    { columns: [{ cols: 12, elements: [{ type: 'footer_note' }] }] },
    {
      columns: [
        {
          cols: 12,
          elements: [
            {
              type: 'separator',
              border_style: 'solid',
              color: ACCENT,
              width: 1,
            },
          ],
        },
      ],
    },
    {
      justify: 'space-between',
      columns: [
        {
          cols: 9,
          elements: [{ type: 'identifications' }, { type: 'additional_info' }],
        },
        { cols: 3, text_align: 'right', elements: [{ type: 'page_number' }] },
      ],
    },
  ],
  table: {
    cols: [
      {
        type: 'description',
        label: 'Description',
        width: 46,
        show_item: true,
        show_sku: true,
      },
      { type: 'quantity', label: 'Qté', width: 9 },
      { type: 'unit', label: 'Unité', width: 9 },
      { type: 'unit_price', label: 'Prix HT', width: 13 },
      { type: 'vat', label: 'TVA', width: 8 },
      { type: 'total_price', label: 'Montant HT', width: 15 },
    ],
    style: {
      general: {},
      thead: {
        background_color: ACCENT,
        color: '#FFFFFF',
        font_weight: '600',
        text_transform: 'uppercase',
        font_size: 10,
      },
      tbody: { odd: {}, even: { background_color: '#F3F6FE' } },
      total: {
        background_color: '#EEF4FF',
        color: ACCENT,
        font_weight: '700',
        font_size: 13,
      },
      tfoot: {},
    },
  },
};
