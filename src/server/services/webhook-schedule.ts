import { WEBHOOK_DISABLE_AFTER_DAYS } from '../../shared/schemas/webhook';

/**
 * When a failed delivery is tried again. Each delivery follows its own schedule, counted from the moment it started
 * (its event, or the endpoint turned back on, or a « Renvoyer »), never from how the endpoint fared with other events:
 * after 1 min, 5 min, 30 min, 2 h and 12 h, then every 12 h, the last attempt exactly at the end of the window.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How long a delivery is retried, and how long an endpoint may fail every attempt before it is turned off. */
export const WEBHOOK_RETRY_WINDOW_MS = WEBHOOK_DISABLE_AFTER_DAYS * 24 * HOUR;

/** The waits between attempts, as documented; past them, every 12 h until the window ends. */
export const WEBHOOK_BACKOFF_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR] as const;
const LATER_WAIT_MS = 12 * HOUR;

/** The attempts' offsets from the start of the schedule (the first attempt, at 0, is not listed). */
export const WEBHOOK_RETRY_OFFSETS_MS: readonly number[] = (() => {
  const offsets: number[] = [];
  let at = 0;
  for (const wait of WEBHOOK_BACKOFF_MS) {
    at += wait;
    offsets.push(at);
  }
  while (at + LATER_WAIT_MS < WEBHOOK_RETRY_WINDOW_MS) {
    at += LATER_WAIT_MS;
    offsets.push(at);
  }
  offsets.push(WEBHOOK_RETRY_WINDOW_MS);
  return offsets;
})();

/**
 * The next attempt after one that failed at `now`, for a schedule started at `from` (both in ms): the first planned
 * offset still ahead — an attempt made late (the job runs once a minute) does not push the later ones back — or null
 * when the window is over and the delivery has failed for good.
 */
export function nextAttemptAfter(from: number, now: number): number | null {
  for (const offset of WEBHOOK_RETRY_OFFSETS_MS) if (from + offset > now) return from + offset;
  return null;
}

/** Whether an endpoint failing every attempt since `failingSince` has failed long enough to be turned off. */
export function failedForTooLong(failingSince: number, now: number): boolean {
  return now - failingSince >= WEBHOOK_RETRY_WINDOW_MS;
}
