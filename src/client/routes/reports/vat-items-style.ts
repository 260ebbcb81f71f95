import { css } from '../../../../styled-system/css';

/** The table of the operations behind a line of the VAT return: the return's own list and the paged one. */
export const vatItemsTable = css({
  w: 'full',
  fontSize: 'sm',
  borderCollapse: 'collapse',
  '& th, & td': { py: '1.5', px: '2', borderBottomWidth: '1px', borderColor: 'border.default', textAlign: 'left', verticalAlign: 'top' },
  '& th': { color: 'fg.muted', fontWeight: '600' },
  '& .num': { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  '& tfoot td': { fontWeight: '700', borderBottomWidth: '0' },
});
