import { border, type Layout } from './layout';

export const epure: Layout = {
  margins: {
    first_page: { top: 2, bottom: 2, left: 2.2, right: 2.2 },
    following_pages: { top: 2, bottom: 2, left: 2.2, right: 2.2 },
  },
  font_family: 'Roboto',
  font_size: 9.5,
  line_height: 1.5,
  fold_line: { status: false, only_first_page: true, alignment: 'left' },
  header: [
    {
      justify: 'space-between',
      columns: [
        {
          cols: 6,
          elements: [
            {
              type: 'document_name',
              style: {
                font_size: 18,
                font_weight: '300',
                text_transform: 'uppercase',
              },
            },
            { type: 'organization' },
          ],
        },
        {
          cols: 5,
          offset: 1,
          text_align: 'right',
          elements: [
            {
              type: 'document_info',
              layout: 1,
              display: { customer_id: false },
            },
          ],
        },
      ],
    },
    { columns: [{ cols: 6, elements: [{ type: 'customer' }] }] },
    { columns: [{ cols: 12, elements: [{ type: 'header_note' }] }] },
  ],
  elements_following_pages: [
    {
      columns: [{ cols: 12, text_align: 'right', elements: [{ type: 'page_number' }] }],
    },
  ],
  footer: [
    { columns: [{ cols: 12, elements: [{ type: 'footer_note' }] }] },
    {
      justify: 'center',
      columns: [
        {
          cols: 12,
          text_align: 'center',
          elements: [
            { type: 'identifications', style: { color: '#6B7280' } },
            { type: 'page_number', style: { color: '#6B7280' } },
          ],
        },
      ],
    },
  ],
  table: {
    cols: [
      {
        type: 'description',
        label: 'Désignation',
        width: 44,
        show_item: true,
        show_sku: false,
      },
      { type: 'quantity_unit', label: 'Quantité', width: 14 },
      { type: 'unit_price', label: 'Prix unitaire', width: 16 },
      // CGI art. 242 nonies A: the VAT rate of each line stays printed, even on the plainest template.
      { type: 'vat', label: 'TVA', width: 8 },
      { type: 'total_price', label: 'Total HT', width: 18 },
    ],
    style: {
      general: {},
      thead: {
        font_weight: '600',
        text_transform: 'uppercase',
        font_size: 10,
        color: '#5B6470',
        border_bottom: border('solid', '#1B1F24'),
      },
      tbody: {
        odd: { border_bottom: border('dotted', '#D0D5DD') },
        even: { border_bottom: border('dotted', '#D0D5DD') },
      },
      total: { font_weight: '600', border_top: border('solid', '#1B1F24') },
      tfoot: {},
    },
  },
};
