import { css } from '../../../../styled-system/css';

/** The rows of a settings list (members, devices): one look; each page sets its own columns beside `row`. */
export const settingsListStyles = {
  row: css({
    display: 'grid',
    gap: '3',
    alignItems: 'center',
    py: '3',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    _first: { borderTopWidth: '0' },
  }),
  name: css({ fontWeight: '600', fontSize: 'sm' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
  badge: css({
    fontSize: 'xs',
    fontWeight: '700',
    color: 'accent.fg',
    bg: 'accent.subtle',
    borderRadius: 'full',
    px: '2',
    py: '0.5',
    ml: '2',
  }),
};
