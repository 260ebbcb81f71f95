import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';

/**
 * Where the user left a text stand-in (components/ui/combobox.tsx, number-input.tsx) when Ark's real input replaced it:
 * focused or not, and the selection (the caret is an empty one).
 */
export interface TextHandover {
  focused: boolean;
  selection?: [number, number];
}

/**
 * For the stand-in's input: the selection as it is when the stand-in leaves, read in its layout cleanup, just before the
 * input is removed. The `select` event comes a task after the selection changes, so a text selected whole just before
 * the swap would otherwise be typed after rather than over.
 */
export function useHandOver(handover: RefObject<TextHandover>): RefObject<HTMLInputElement | null> {
  const element = useRef<HTMLInputElement>(null);
  useLayoutEffect(
    () => () => {
      const input = element.current;
      if (input && input === document.activeElement && input.selectionStart !== null && input.selectionEnd !== null)
        handover.current.selection = [input.selectionStart, input.selectionEnd];
    },
    [handover],
  );
  return element;
}

/** For the wrapper: once the real part is drawn, its input takes the focus and the selection the stand-in had. */
export function useTakeOver(real: unknown, handover: RefObject<TextHandover>, input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const { focused, selection } = handover.current;
    const element = input.current;
    if (!real || !element || !focused) return;
    element.focus({ preventScroll: true });
    if (selection) element.setSelectionRange(selection[0], selection[1]);
  }, [real, handover, input]);
}
