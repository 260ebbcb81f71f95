import { useState, type ReactNode } from 'react';
import { css } from '../../../../../styled-system/css';

/** Field grids: as many fields a line as fit, each at least 100, 140 or 180 px wide. */
export const grid = {
  four: css({
    display: 'grid',
    gap: '3',
    alignItems: 'start',
    gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
  }),
  narrow: css({
    display: 'grid',
    gap: '3',
    alignItems: 'start',
    gridTemplateColumns: 'repeat(auto-fill, minmax(100px, 1fr))',
  }),
  medium: css({
    display: 'grid',
    gap: '3',
    alignItems: 'start',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
  }),
  wide: css({
    display: 'grid',
    gap: '3',
    alignItems: 'start',
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
  }),
};

export const sectionTitle = css({
  fontSize: 'xs',
  fontWeight: '700',
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: 'fg.muted',
});
export const sectionNote = css({ fontSize: 'sm', color: 'fg.muted' });
export const panel = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
});
export const subCard = css({
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'lg',
  p: '3',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  bg: 'bg.surface',
});

const disclosure = css({
  fontSize: 'sm',
  '& > summary': {
    cursor: 'pointer',
    color: 'accent.fg',
    fontWeight: '600',
    py: '1',
    w: 'fit-content',
  },
});

/** A closed-by-default block whose content is only mounted once opened: a style editor is thirty fields. */
export function Disclosure({ summary, children }: { summary: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className={disclosure} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && <div className={css({ pt: '2' })}>{children}</div>}
    </details>
  );
}
