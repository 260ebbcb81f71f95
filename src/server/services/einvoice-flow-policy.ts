import type { FlowRow } from '../db/queries/einvoice-flows';
import type { AfnorError } from '../einvoice/afnor/errors';

/**
 * What a failed attempt to reach the platform means for a submission: when the next attempt is due, when the outbox
 * gives up (« À renvoyer »), what is a refusal never retried, and whether a file may have left (`uncertain`: the next
 * attempt asks the platform by trackingId before posting). Pure: the clock and the jitter are the caller's.
 */

const MINUTE = 60_000;
/** A Retry-After is honoured, up to a day. */
const MAX_RETRY_AFTER_MS = 24 * 60 * MINUTE;

export interface FlowDelays {
  /** The first wait after a failed submission; doubled at each failure, up to `retryCapMs`, with jitter. */
  retryBaseMs: number;
  retryCapMs: number;
  /** Failed submissions before the outbox gives up: the submission is then « À renvoyer » (by hand). */
  maxAttempts: number;
  /** The waits between readings of a pending acknowledgement (the last one repeats). */
  ackPollMs: readonly number[];
  /** How often the outbox looks for work it was not told about (another process's issue, a lapsed lease). */
  idlePollMs: number;
  /** How long a claim holds a submission: past every timeout of one attempt, so only a crash lets it lapse. */
  leaseMs: number;
}

export const FLOW_DELAYS: FlowDelays = {
  retryBaseMs: 30_000,
  retryCapMs: 60 * MINUTE,
  maxAttempts: 10,
  ackPollMs: [5_000, 15_000, 30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 60 * MINUTE],
  idlePollMs: MINUTE,
  leaseMs: 5 * MINUTE,
};
export interface RetryPolicy {
  delays: FlowDelays;
  now: () => Date;
  /** Jitter source, in [0, 1). */
  random: () => number;
}

/** The wait before attempt `attempt + 1`: the platform's Retry-After, else exponential, half of it random. */
export function delayOf(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | null): number {
  if (retryAfterSeconds !== null) return Math.min(Math.max(retryAfterSeconds * 1000, 1000), MAX_RETRY_AFTER_MS);
  const full = Math.min(policy.delays.retryCapMs, policy.delays.retryBaseMs * 2 ** (attempt - 1));
  // Half fixed, half random: processes and organisations that failed together do not all come back together.
  return Math.round(full / 2 + (policy.random() * full) / 2);
}

export const at = (policy: Pick<RetryPolicy, 'now'>, ms: number): string => new Date(policy.now().getTime() + ms).toISOString();

/** A failed attempt: due again after the backoff, or « À renvoyer » once `maxAttempts` failed. */
export function retryOrGiveUp(policy: RetryPolicy, row: Pick<FlowRow, 'attempts'>, reason: string, retryAfterSeconds: number | null) {
  const attempts = row.attempts + 1;
  if (attempts >= policy.delays.maxAttempts) {
    return {
      state: 'to_resend',
      attempts,
      next_attempt_at: null,
      last_error: `toujours en échec après ${attempts} essais (${reason}) : renvoyez-la quand la plateforme répondra`,
    };
  }
  return { state: 'pending', attempts, next_attempt_at: at(policy, delayOf(policy, attempts, retryAfterSeconds)), last_error: reason };
}

/** How a failed submission is recorded: retried, refused (with its reasons), or left for the user. */
export function submissionFailure(policy: RetryPolicy, row: Pick<FlowRow, 'attempts'>, error: AfnorError, uncertainBefore: boolean) {
  // A file may have reached the platform: a timeout, a broken connection, an unreadable or 5xx answer (but a 503:
  // the platform said it did not take it).
  const maybeSent =
    error.service === 'flow' &&
    (error.failure === 'timeout' ||
      error.failure === 'network' ||
      error.failure === 'aborted' ||
      error.failure === 'garbage' ||
      error.failure === 'too-large' ||
      (error.failure === 'unavailable' && error.status !== 503));
  const uncertain = maybeSent || uncertainBefore ? 1 : 0;
  const reason = error.message;
  if (error.failure === 'aborted') {
    // The server is stopping: not a failure of the platform, due again at once for the next process.
    return { uncertain, next_attempt_at: policy.now().toISOString(), last_error: reason };
  }
  if (error.failure === 'garbage' || error.failure === 'too-large') {
    return { uncertain, state: 'to_resend', next_attempt_at: null, last_error: `${reason} : rien n’est tenu pour déposé, renvoyez-la` };
  }
  if (error.failure === 'unauthorized' || error.failure === 'refused-target' || (error.failure === 'http' && error.status === 404)) {
    return {
      uncertain,
      state: 'to_resend',
      next_attempt_at: null,
      last_error: `${reason} (Paramètres → Facturation électronique), puis renvoyez-la`,
    };
  }
  if (error.failure === 'http') {
    // A refusal (400, 413, 422…): the same file would be refused again. Its code is the platform's reason.
    const code = error.platformError?.errorCode ?? `HTTP ${error.status}`;
    const message = error.platformError?.details || error.platformError?.errorMessage || reason;
    return {
      uncertain,
      state: 'error',
      ack_status: 'Error',
      next_attempt_at: null,
      attempts: row.attempts + 1,
      reasons: JSON.stringify([{ code, message, item: '', level: 'Error' }]),
      last_error: reason,
    };
  }
  return { uncertain, ...retryOrGiveUp(policy, row, reason, error.retryAfterSeconds) };
}
