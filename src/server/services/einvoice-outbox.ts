import crypto from 'node:crypto';
import { actingForNoOrganization } from '../db/write-scope';
import { logger } from '../logger';
import { claimFlow, dueFlowIds, findFlow, nextFlowDueAt, type OutboxTable } from '../db/queries/einvoice-flows';
import { findStatusFlow } from '../db/queries/einvoice-status-flows';
import { FlowAttempt, type FlowOutboxDeps } from './einvoice-flow-attempt';
import { StatusFlowAttempt } from './einvoice-status-attempt';
import { FLOW_DELAYS, type FlowDelays } from './einvoice-flow-policy';

export type { FlowOutboxDeps };

const BATCH = 10;
const QUEUES: readonly OutboxTable[] = ['einvoice_flows', 'einvoice_status_flows'];

export interface FlowOutboxOptions {
  /** Run the background loop in this process (default: yes, except under NODE_ENV=test where tests drive it). */
  start?: boolean;
  /** The outbox's clock: tests move it instead of waiting. */
  now?: () => Date;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  /** Every call to the platform ends after this (tests shorten it). */
  timeoutMs?: number;
  delays?: Partial<FlowDelays>;
}

/** The outboxes of the running apps (one in production): a document just issued wakes each of them. */
const outboxes = new Set<FlowOutbox>();

/** Asks every running outbox to look for due submissions now (after an issue's commit). */
export function kickFlowOutboxes(): void {
  for (const outbox of outboxes) outbox.kick();
}

/**
 * The outbox of outgoing flows: submits the queued invoices and credit notes, and the lifecycle messages (CDAR), to the
 * platform's Flow Service (`POST /v1/flows`), then reads each flow's acknowledgement until it is Ok (« Déposée ») or
 * Error. Both queues go through the same claims, retries and checks with the platform.
 *
 * Failures are retried with backoff: a 429 or 503's Retry-After is honoured, anything transient waits exponentially
 * longer (with jitter) up to `maxAttempts`, after which the submission is « À renvoyer ». A refusal (4xx) is not
 * retried: its reasons are kept and shown in French. Nothing is recorded as submitted without the platform's answer
 * naming the flow.
 *
 * Never twice for one document: each submission is claimed by one process at a time (an atomic UPDATE with a lease),
 * and an attempt whose outcome is unknown (timeout, broken connection, garbage, crash) leaves the row `uncertain`, so
 * the next attempt first asks the platform for the document's trackingId and adopts the flow it finds.
 */
export class FlowOutbox {
  private readonly holder = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  readonly now: () => Date;
  private readonly delays: FlowDelays;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<unknown>>();
  private abort = new AbortController();
  private readonly attempt: FlowAttempt;
  private readonly statusAttempt: StatusFlowAttempt;

  constructor(
    private readonly deps: FlowOutboxDeps,
    options: FlowOutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.delays = { ...FLOW_DELAYS, ...options.delays };
    const context = {
      deps,
      holder: this.holder,
      now: this.now,
      random: options.random ?? Math.random,
      delays: this.delays,
      timeoutMs: options.timeoutMs,
      signal: () => this.abort.signal,
    };
    this.attempt = new FlowAttempt(context);
    this.statusAttempt = new StatusFlowAttempt(context);
  }

  /** Starts the background loop: what is due now (what waited while the server was down) is sent at once. */
  start(): void {
    this.stopped = false;
    outboxes.add(this);
    this.kick();
  }

  /** Several kicks during a run make one more run after it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    // The loop sends every organisation's flows: never as the procedure that kicked it (db/write-scope.ts).
    this.running = actingForNoOrganization(() => this.loop()).finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (!this.stopped) {
      this.again = false;
      try {
        await this.runDue();
      } catch (error) {
        logger.error('e-invoice outbox: run failed (tried again at the next wake)', error);
      }
      if (this.again) continue;
      await this.scheduleNext();
      if (!this.again || this.stopped) break;
      clearTimeout(this.timer);
    }
  }

  /** Sleeps until the next submission falls due, or `idlePollMs` at most. */
  private async scheduleNext(): Promise<void> {
    let wait = this.delays.idlePollMs;
    try {
      for (const table of QUEUES) {
        const next = await nextFlowDueAt(this.deps.db, table);
        if (next) wait = Math.min(wait, Date.parse(next) - this.now().getTime());
      }
    } catch (error) {
      logger.error('e-invoice outbox: next due time unknown', error);
    }
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.max(wait, 50));
    this.timer.unref();
  }

  /**
   * Stops the loop and ends the calls in flight at once (the server is stopping): their submissions are released,
   * `uncertain` where a file may have left, for the next process to check with the platform before sending again.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    outboxes.delete(this);
    clearTimeout(this.timer);
    this.abort.abort();
    await Promise.allSettled([this.running, ...this.inFlight]);
    this.abort = new AbortController();
  }

  private async track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private claim(id: number, table: OutboxTable): Promise<boolean> {
    const now = this.now();
    return claimFlow(this.deps.db, {
      id,
      holder: this.holder,
      now: now.toISOString(),
      until: new Date(now.getTime() + this.delays.leaseMs).toISOString(),
      table,
    });
  }

  /** Works through every submission and message due now, in claimed batches; answers how many it worked on. */
  async runDue(): Promise<number> {
    let worked = 0;
    for (const table of QUEUES) {
      for (let round = 0; round < 20; round++) {
        const ids = await dueFlowIds(this.deps.db, { now: this.now().toISOString(), limit: BATCH, table });
        const mine: number[] = [];
        for (const id of ids) if (await this.claim(id, table)) mine.push(id);
        if (mine.length === 0) break;
        await Promise.all(mine.map((id) => this.track(this.work(id, table))));
        worked += mine.length;
      }
    }
    return worked;
  }

  /** One attempt now on one submission (« Transmettre »), unless another process holds it: then it is left to that one. */
  async attemptNow(id: number, table: OutboxTable = 'einvoice_flows'): Promise<void> {
    if (await this.claim(id, table)) await this.track(this.work(id, table));
  }

  private async work(id: number, table: OutboxTable): Promise<void> {
    if (table === 'einvoice_status_flows') {
      const message = await findStatusFlow(this.deps.db, { id });
      if (message) await this.statusAttempt.run(message);
      return;
    }
    const row = await findFlow(this.deps.db, { id });
    if (row) await this.attempt.run(row);
  }
}
