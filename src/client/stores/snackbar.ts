import { proxy } from 'valtio';

/** One page-level snackbar, 5 s, coloured by HTTP status. */
export const SNACKBAR_TIMEOUT_MS = 5000;

export const snackbar = proxy({
  open: false,
  messages: [] as string[],
  status: 200,
  /** Bumped on every show so a repeated message restarts the timer. */
  serial: 0,
});

export function showMessage(messages: string | string[], status = 200) {
  snackbar.messages = Array.isArray(messages) ? messages : [messages];
  snackbar.status = status;
  snackbar.open = true;
  snackbar.serial += 1;
}

export function closeSnackbar() {
  snackbar.open = false;
}

/** 200 success, 400 error, 401 warning, any other status black. */
export function snackbarTone(status: number): 'success' | 'error' | 'warning' | 'neutral' {
  if (status >= 200 && status < 300) return 'success';
  if (status === 400) return 'error';
  if (status === 401) return 'warning';
  return 'neutral';
}
