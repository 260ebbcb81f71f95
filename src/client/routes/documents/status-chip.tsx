import { css, cx } from '../../../../styled-system/css';
import { STATUSES, statusLabel } from '../../../shared/status';
import type { DocumentType } from '../../../shared/schemas/document';

/** Colours as text and background pairs readable in both themes. */
const TONES: Record<string, string> = {
  green: css({ color: 'success', bg: 'successSubtle' }),
  teal: css({ color: '#0F766E', bg: '#E6F6F4', _dark: { color: '#5EEAD4', bg: 'rgba(94, 234, 212, 0.14)' } }),
  orange: css({ color: 'warning', bg: 'warningSubtle' }),
  amber: css({ color: '#92400E', bg: '#FEF3C7', _dark: { color: '#FCD34D', bg: 'rgba(252, 211, 77, 0.14)' } }),
  red: css({ color: 'danger', bg: 'dangerSubtle' }),
  gray: css({ color: 'fg.muted', bg: 'bg.subtle' }),
  blue: css({ color: 'accent.fg', bg: 'accent.subtle' }),
  purple: css({ color: '#6B21A8', bg: '#F3E8FF', _dark: { color: '#D8B4FE', bg: 'rgba(216, 180, 254, 0.14)' } }),
};
const chip = css({
  display: 'inline-flex',
  alignItems: 'center',
  fontSize: 'xs',
  fontWeight: '700',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  whiteSpace: 'nowrap',
});

/** A status with the label and colour (Payée green, Exigible red…). */
export function StatusChip({ status, type, className }: { status: string; type?: DocumentType; className?: string }) {
  const color = (STATUSES as Record<string, { color: string }>)[status]?.color ?? 'gray';
  return <span className={cx(chip, TONES[color], className)}>{statusLabel(status, type)}</span>;
}
