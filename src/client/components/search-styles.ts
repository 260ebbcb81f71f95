import { css } from '../../../styled-system/css';

/**
 * The search palette's own layout inside its dialog (the field, the grouped results): plain elements, not Ark parts,
 * whose frame is the dialog recipe's `top` placement.
 */
export const searchStyles = {
  field: css({
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    px: '4',
    h: '14',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    color: 'fg.muted',
  }),
  input: css({
    flex: '1',
    h: 'full',
    bg: 'transparent',
    fontSize: 'md',
    color: 'fg.default',
    outline: 'none',
    _placeholder: { color: 'fg.subtle' },
  }),
  esc: css({
    fontSize: 'xs',
    fontWeight: '700',
    px: '2',
    py: '1',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.strong',
    color: 'fg.muted',
    cursor: 'pointer',
    _hover: { bg: 'bg.subtle' },
  }),
  body: css({ px: '4', py: '8', textAlign: 'center', color: 'fg.muted', fontSize: 'sm', lineHeight: '1.6' }),
  results: css({ maxH: '60dvh', overflowY: 'auto', py: '2' }),
  group: css({
    px: '4',
    pt: '2',
    pb: '1',
    fontSize: 'xs',
    fontWeight: '700',
    textTransform: 'uppercase',
    letterSpacing: '0.06em',
    color: 'fg.muted',
  }),
  result: css({
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    px: '4',
    py: '2.5',
    fontSize: 'sm',
    color: 'fg.default',
    _hover: { bg: 'bg.subtle' },
    _focusVisible: { bg: 'accent.subtle', outline: 'none' },
    // The row the arrow keys reached (the focus stays in the field, as in a combobox).
    '&[aria-selected=true]': { bg: 'accent.subtle', color: 'accent.fg', boxShadow: 'inset 3px 0 0 token(colors.accent.default)' },
  }),
  title: css({ fontWeight: '600' }),
  subtitle: css({ color: 'fg.muted', ml: 'auto', fontVariantNumeric: 'tabular-nums' }),
};
