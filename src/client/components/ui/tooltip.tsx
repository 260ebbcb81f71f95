import {
  cloneElement,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  useEffect,
  useRef,
  useState,
} from 'react';
import { arkPart, useArkPart } from '../../lib/lazy-page';
import type { TooltipProps } from './ark-tooltip';

// Ark's tooltip brings the positioning engine (floating-ui) into the shell of every page, for a label that
// shows after 250 ms of hover. It downloads when the browser is idle or on the first hover or focus of a trigger;
// until then the trigger draws alone. If it cannot download, the trigger simply works without its label (not worth a
// notice; preload swallows the error), and the next hover or focus tries again.
const ark = arkPart(
  () => import('./ark-tooltip'),
  (m) => m.ArkTooltipBox,
);

type TriggerHandlers = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
};

/**
 * Calls `release` once the press under way ends: after the pointer or the key is let go anywhere, on the next task, so
 * that the click the browser sends after the release still reaches the element that was pressed.
 */
function afterRelease(kind: 'pointer' | 'key', release: () => void) {
  const events = kind === 'pointer' ? ['pointerup', 'pointercancel'] : ['keyup'];
  const end = () => {
    for (const name of events) window.removeEventListener(name, end, true);
    window.removeEventListener('blur', end);
    setTimeout(release, 0);
  };
  for (const name of events) window.addEventListener(name, end, true);
  window.addEventListener('blur', end);
}

/** A label shown on hover and keyboard focus of `children` (ark-tooltip.tsx), its code fetched when first needed. */
export function Tooltip(props: TooltipProps) {
  const Real = useArkPart(ark);
  // Wrapping the trigger mounts it anew. Between a press and its release the swap waits: a button pressed in one
  // element and released in its replacement gets no click (the click was lost when the code came mid-click).
  const [pressed, setPressed] = useState(false);
  // Where the pointer and the focus were when the trigger drew alone: the real tooltip opens at once if they are still
  // there, and the focus comes back to its trigger (wrapping it mounts it anew).
  const hovered = useRef(false);
  const focused = useRef(false);
  const trigger = useRef<HTMLElement>(null);
  const wrapped = Real !== undefined && !pressed;
  useEffect(() => {
    if (wrapped && focused.current) trigger.current?.focus({ preventScroll: true });
  }, [wrapped]);
  // Read once, when the real tooltip mounts: the handlers below are gone by then.
  if (Real && wrapped) return <Real {...props} defaultOpen={hovered.current || focused.current || undefined} triggerRef={trigger} />;
  const child = props.children as ReactElement<TriggerHandlers>;
  const own = child.props;
  return cloneElement(child, {
    onPointerEnter: (event) => {
      hovered.current = true;
      void ark.preload();
      own.onPointerEnter?.(event);
    },
    onPointerLeave: (event) => {
      hovered.current = false;
      own.onPointerLeave?.(event);
    },
    onFocus: (event) => {
      focused.current = true;
      void ark.preload();
      own.onFocus?.(event);
    },
    onPointerDown: (event) => {
      hovered.current = false; // a clicked trigger shows no label, as Ark's own closes its label on a click
      setPressed(true);
      afterRelease('pointer', () => setPressed(false));
      own.onPointerDown?.(event);
    },
    onKeyDown: (event) => {
      if (event.key === ' ' || event.key === 'Enter') {
        setPressed(true);
        afterRelease('key', () => setPressed(false));
      }
      own.onKeyDown?.(event);
    },
    onBlur: (event) => {
      // Not when the swap itself removes it: the focus is then handed back to the real trigger.
      if (event.currentTarget.isConnected) focused.current = false;
      own.onBlur?.(event);
    },
  });
}
