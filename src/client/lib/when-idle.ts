/**
 * Idle time in the first moments of a fresh load is not idle: the page's data is on its way and its code still has to
 * run when it lands. Downloading (and running) ahead the pages, overlays and kit parts a user may open next then delays
 * the page asked for, so that work waits until this much time has passed since the navigation started.
 */
const FIRST_PAGE_MS = 1_500;

function onIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 5_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, 2_000);
  return () => window.clearTimeout(timer);
}

/** Runs `task` once the browser is idle (Safari has no requestIdleCallback: a short timer there); returns the cancel. */
export function whenIdle(task: () => void): () => void {
  const wait = FIRST_PAGE_MS - performance.now();
  if (wait <= 0) return onIdle(task);
  let cancel: () => void = () => undefined;
  const timer = window.setTimeout(() => {
    cancel = onIdle(task);
  }, wait);
  return () => {
    window.clearTimeout(timer);
    cancel();
  };
}
