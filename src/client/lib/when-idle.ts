/** Runs `task` once the browser is idle (Safari has no requestIdleCallback: a short timer there); returns the cancel. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 5_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, 2_000);
  return () => window.clearTimeout(timer);
}
