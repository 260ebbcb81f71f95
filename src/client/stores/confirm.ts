import { proxy } from 'valtio';

/** The confirm dialog resolves true or false; Escape means cancel. */
export const confirmState = proxy({
  open: false,
  message: '',
  title: '',
  confirmLabel: 'Oui',
  cancelLabel: 'Annuler',
  /** 300 px unless a longer question needs more room. */
  width: 300,
});

let pending: ((answer: boolean) => void) | undefined;

export function confirm(
  message: string,
  opts: { title?: string; confirmLabel?: string; cancelLabel?: string; width?: number } = {},
): Promise<boolean> {
  pending?.(false); // a newer question replaces an unanswered one
  Object.assign(confirmState, {
    open: true,
    message,
    title: opts.title ?? '',
    confirmLabel: opts.confirmLabel ?? 'Oui',
    cancelLabel: opts.cancelLabel ?? 'Annuler',
    width: opts.width ?? 300,
  });
  return new Promise((resolve) => {
    pending = resolve;
  });
}

export function answerConfirm(answer: boolean) {
  confirmState.open = false;
  const resolve = pending;
  pending = undefined;
  resolve?.(answer);
}
