import { css } from '../../../../../styled-system/css';

/** The editor's frame, shared by the document editor and the recurring-invoice editor: a form beside its totals. */
export const editorLayout = {
  layout: css({ display: 'grid', gridTemplateColumns: { base: '1fr', xl: '1fr 340px' }, gap: '4', alignItems: 'start' }),
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '4', md: '5' },
    display: 'flex',
    flexDirection: 'column',
    gap: '4',
  }),
  heading: css({ fontSize: 'sm', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.05em', color: 'fg.muted' }),
};
