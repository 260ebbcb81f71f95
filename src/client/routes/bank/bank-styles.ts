import { css } from '../../../../styled-system/css';

/** The bank page's cards: the account and its statement, the reconciliation, the lines. */
export const bankCard = css({
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  p: { base: '4', md: '5' },
  display: 'grid',
  gap: '3',
});

/** Amounts in a column: aligned figures, never broken. */
export const bankAmount = css({ textAlign: 'right', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' });

/** A row of controls that wraps on a phone. */
export const bankRow = css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' });

/** A refusal, said where the action was. */
export const bankError = css({
  fontSize: 'sm',
  bg: 'dangerSubtle',
  color: 'danger',
  fontWeight: '600',
  borderRadius: 'lg',
  px: '4',
  py: '2',
});

/** Small secondary text: reasons, counterparties, what a line paid. */
export const bankMuted = css({ fontSize: 'xs', color: 'fg.muted' });
