import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { Env } from './env';
import { openDatabase, type Connection } from './db/connection';
import { migrateToLatest } from './migrate';
import { resolveAuditKey, setAuditKey } from './services/audit-key';
import { assertUsableDatabaseFile } from './db/database-file';
import { createMailer } from './mail/mailer';
import { createRateLimits } from './auth/rate-limit';
import { createBuildInfo } from './build-info';
import type { AppDeps } from './context';
import { createRequestHandler, type ClientHandler } from './http/handler';
import { createStaticHandler } from './http/static';
import { RequestDrain } from './http/drain';
import { AppResponse } from './http/app-response';
import { logger } from './logger';
import { checkParisRule } from '../shared/paris-date';
import { PdfRenderer } from './pdf/pdf-renderer';
import { type EinvoiceXmlProvider, renderKeptPdf } from './pdf/document-pdf';
import { IssueArchiver } from './services/issue-archive';
import { archivedPdf } from './services/pdf-archive';
import type { StoredDocument } from '../shared/schemas/document-model';
import { FolderPlatform } from './einvoice/folder-platform';
import { buildEinvoiceXml } from './services/einvoice-xml';
import { Scheduler } from './scheduler/scheduler';
import { JOBS } from './scheduler/jobs';
import { WebhookDispatcher } from './services/webhook-delivery';
import { notifyEndpointDisabled } from './services/webhook-notice';
import { FlowOutbox, type FlowOutboxOptions } from './services/einvoice-outbox';
import { clock } from './clock';
import { createStripeProvider } from './payments/stripe';
import { closeHeavyWork, configureHeavyWork } from './workers/heavy-work';

// Zod's own messages (wrong type, unknown key…) in French, for every schema of the process.
z.config(z.locales.fr());

export interface App {
  deps: AppDeps;
  connection: Connection;
  server: http.Server;
  /** The timed work (recurring expenses…); started with the app unless `options.scheduler` is false. */
  scheduler: Scheduler;
  /** The outbox of invoices to the platform's API; started with the app unless `options.flows.start` is false. */
  flows: FlowOutbox;
  /** Listens on env.port (0 = ephemeral) and resolves to the base URL. */
  listen(): Promise<string>;
  /**
   * Graceful and bounded (README "Deploy"): stops accepting at once, lets in-flight requests finish, abandons the PDFs
   * being kept at issue (their first download prints them), stops the timed work, then closes the database.
   */
  close(): Promise<void>;
  /** What a stop still waits for (for the log of an exit forced before it ends). */
  stillRunning(): string;
}

async function developmentClient(): Promise<{ handler: ClientHandler; close: () => Promise<void> }> {
  // Only `npm run dev` reaches this: Vite serves the SPA with HMR on the same port as the API.
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'spa' });
  return {
    handler: (req, res) =>
      vite.middlewares(req, res, () => {
        res.statusCode = 404;
        res.end();
      }),
    close: () => vite.close(),
  };
}

export interface AppOptions {
  /**
   * Keep the PDF of each invoice and credit note at its issue: always in production. Tests that do not
   * exercise it turn it off, as it starts a Chromium per server; their first download keeps the PDF instead.
   */
  archiveOnIssue?: boolean;
  /**
   * The EN 16931 CII of an issued invoice or credit note (§6). By default `buildEinvoiceXml`: the PDF kept
   * for each is a Factur-X PDF/A-3 carrying it, and the platform outbox sends it. `null` (tests only): the printed PDF
   * is kept as it is and nothing can be sent. PDFs already kept stay as they were (frozen).
   */
  einvoiceXml?: EinvoiceXmlProvider | null;
  /** Run the scheduler in this process (default: yes, except under NODE_ENV=test where tests drive it). */
  scheduler?: boolean;
  /** The scheduler's clock, for tests. */
  now?: () => Date;
  /** The outbox of outgoing flows: started (default: yes, except under NODE_ENV=test), its clock and delays. */
  flows?: FlowOutboxOptions;
}

/**
 * A stop ends within this, in all: main.ts exits (non-zero) when it is spent, and compose.yaml's stop_grace_period
 * (20 s) leaves room beyond it. The requests, jobs and prints get what remains of `SHUTDOWN_WORK_MS`; closing Chromium
 * and the database take the rest.
 */
export const SHUTDOWN_BUDGET_MS = 10_000;
const SHUTDOWN_WORK_MS = 8_000;

/** How long the stop waits for Chromium to close (see close()). */
const CHROMIUM_CLOSE_MS = 1_000;

/** A keep-alive connection idle this long when the stop begins is closed; a busier client gets its answer first. */
const IDLE_CONNECTION_MS = 500;

/** Waits for `work`, `ms` at most; `onTimeout` says what is left behind. */
async function waitAtMost(work: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ms));
  });
  if ((await Promise.race([work, late])) === 'late') onTimeout();
  clearTimeout(timer);
}

export async function createApp(env: Env, options: AppOptions = {}): Promise<App> {
  logger.configure({ level: env.logLevel });
  configureHeavyWork(env.heavyWork);
  if (env.databaseKind === 'sqlite' && env.databasePath !== ':memory:') assertUsableDatabaseFile(env.databasePath);
  // Before the migrations: they sign the seal of a chain written before the log was keyed.
  setAuditKey(resolveAuditKey(env));
  // Paris days are computed by the EU summer-time rule (shared/paris-date.ts): checked once against the zone database.
  if (!checkParisRule()) logger.error('paris-date: the EU summer-time rule no longer gives the zone database’s day; the database is used');
  const connection = openDatabase(env.databasePath);
  await migrateToLatest(connection.db);

  const pdf = new PdfRenderer(env.chromiumPath, env.chromiumSandbox);
  const ownOrigin = () => {
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  };
  const einvoiceXml =
    options.einvoiceXml === null
      ? undefined
      : (options.einvoiceXml ??
        ((organizationId: number, documentId: number) => buildEinvoiceXml(connection.db, organizationId, documentId, 'cii')));
  const pdfDeps = { pdf, ownOrigin, einvoiceXml };
  const archivedOrPrinted = (doc: StoredDocument) => archivedPdf(connection.db, env.dataDir, doc, () => renderKeptPdf(pdfDeps, doc));
  const flows = new FlowOutbox(
    {
      db: connection.db,
      env,
      xml:
        options.einvoiceXml === null
          ? undefined
          : (organizationId, documentId, syntax) => buildEinvoiceXml(connection.db, organizationId, documentId, syntax),
      pdf: archivedOrPrinted,
    },
    options.flows,
  );
  const deps: AppDeps = {
    db: connection.db,
    env,
    mailer: createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }),
    // Several processes share PostgreSQL: their limits must be one count (rows of the database); SQLite is one process.
    rateLimits: createRateLimits(env.rateLimits, connection.dialect === 'postgres' ? connection.db : undefined),
    buildInfo: createBuildInfo(env.clientDist),
    issueArchiver: new IssueArchiver({
      db: connection.db,
      dataDir: env.dataDir,
      render: options.archiveOnIssue === false ? undefined : (doc) => renderKeptPdf(pdfDeps, doc),
    }),
    einvoice: {
      // The folder outbox under the data directory, until an approved platform's connector replaces it (README).
      connector: new FolderPlatform(path.join(env.dataDir, 'platform')),
      xml: einvoiceXml,
      pdf: archivedOrPrinted,
      outbox: flows,
    },
    pdf: pdfDeps,
    payments: env.stripe ? createStripeProvider(env.stripe) : null,
  };
  const client =
    env.nodeEnv === 'development' ? await developmentClient() : { handler: createStaticHandler(env.clientDist), close: async () => {} };
  const drain = new RequestDrain();
  const server = http.createServer({ ServerResponse: AppResponse }, createRequestHandler(deps, client.handler, pdfDeps, drain));
  drain.watch(server);
  server.keepAliveTimeout = 65_000; // longer than common reverse proxies' idle timeout, so they never reuse a closed socket
  server.requestTimeout = 60_000;
  const scheduler = new Scheduler(connection.db, JOBS, options.now, undefined, deps);
  if (options.scheduler ?? env.nodeEnv !== 'test') scheduler.start();
  // Sends an event's webhooks right after the commit that recorded it (the scheduler's job retries).
  const webhooks = new WebhookDispatcher(
    connection.db,
    {
      allowPrivate: env.outbound.allowPrivate,
      planLimits: env.planLimits,
      onDisabled: notifyEndpointDisabled({ db: connection.db, mailer: deps.mailer, appUrl: env.appUrl }),
    },
    () => clock.now(),
  );
  webhooks.start();
  if (options.flows?.start ?? env.nodeEnv !== 'test') flows.start();

  let closing: Promise<void> | undefined;
  let step = 'serving';
  const waitFor = async (what: string, work: Promise<unknown>, deadline: number) => {
    step = what;
    await waitAtMost(work, deadline - Date.now(), () =>
      logger.error(`shutdown: ${what} not done in time, going on without it (${stillRunning()})`),
    );
  };
  const stillRunning = () => `${step}; ${drain.inFlight} request(s) in flight, ${deps.issueArchiver.inFlight} PDF(s) being kept at issue`;
  return {
    deps,
    connection,
    server,
    scheduler,
    flows,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(env.port, env.host, () => {
          const { port } = server.address() as AddressInfo;
          const host = env.host.includes(':') ? `[${env.host}]` : env.host;
          resolve(`http://${host}:${port}`);
        });
      }),
    stillRunning,
    close() {
      closing ??= (async () => {
        const deadline = Date.now() + SHUTDOWN_WORK_MS;
        // Stops listening now (not after the work below): new connections go to another process at once.
        drain.drain();
        const closed = server.listening
          ? drain.closeServer(server, { idleMs: IDLE_CONNECTION_MS, forceMs: SHUTDOWN_WORK_MS })
          : Promise.resolve();
        // Chromium prints pages of this server, which no longer accepts connections: a print cannot be counted on
        // to finish, so it ends now rather than at the deadline. A download being printed answers 503 (the client
        // retries elsewhere); a PDF being kept at issue is abandoned, nothing written for it, and its first
        // download prints it.
        deps.issueArchiver.abandon();
        const chromiumClosed = pdf.close();
        // Calls to the platform in flight end now: their submissions are released for the next process, which asks
        // the platform what it received before sending anything again.
        const flowsStopped = flows.stop();
        // A handler whose client hung up is no connection any more but still uses the database: it ends first.
        await waitFor('answering the requests in flight', Promise.all([closed, drain.idle()]), deadline);
        drain.stop();
        await waitFor('abandoning the PDFs being kept', deps.issueArchiver.settled(), deadline);
        await waitFor('stopping the scheduler', scheduler.stop(), deadline);
        await waitFor('stopping the webhook deliveries', webhooks.stop(), deadline);
        await waitFor('stopping the e-invoice outbox', flowsStopped, deadline);
        // Chromium can take seconds to go on a busy machine: one still closing is killed as the process exits
        // (playwright's exit handler), so the stop does not wait for it long.
        await waitAtMost(chromiumClosed, Math.min(CHROMIUM_CLOSE_MS, deadline - Date.now()), () => {});
        // Worker threads doing heavy work stop after the requests and jobs that use them, before the database: what
        // still runs in one is abandoned.
        step = 'stopping the worker threads';
        await waitFor('stopping the worker threads', closeHeavyWork(), deadline);
        step = 'closing the database';
        await client.close();
        await connection.close();
        step = 'stopped';
      })();
      return closing;
    },
  };
}
