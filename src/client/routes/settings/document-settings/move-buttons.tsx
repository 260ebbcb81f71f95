import { css } from '../../../../../styled-system/css';

const button = css({
  display: 'grid',
  placeItems: 'center',
  w: '7',
  h: '7',
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  fontSize: 'sm',
  _hover: { _enabled: { bg: 'bg.subtle', color: 'fg.default' } },
  _disabled: { opacity: 0.35, cursor: 'not-allowed' },
});

/** The grip a pointer drags by; keyboard users have the Monter / Descendre buttons beside it. */
export const dragHandle = css({
  cursor: 'grab',
  color: 'fg.subtle',
  fontSize: 'lg',
  lineHeight: '1',
  px: '1',
  py: '1',
  userSelect: 'none',
  _active: { cursor: 'grabbing' },
});

/** Reordering without a pointer: 'Monter' / 'Descendre' buttons named after what they move. */
export function MoveButtons({ name, index, count, onMove }: { name: string; index: number; count: number; onMove: (to: number) => void }) {
  return (
    <div className={css({ display: 'flex', gap: '0.5' })}>
      <button
        type="button"
        className={button}
        aria-label={`Monter ${name}`}
        title="Monter"
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        className={button}
        aria-label={`Descendre ${name}`}
        title="Descendre"
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </button>
    </div>
  );
}
