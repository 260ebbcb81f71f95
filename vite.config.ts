/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { trpcNativeSpread } from './build/trpc-native-spread.ts';

// One config for the SPA build, the server's SSR build and the three Vitest projects.
/**
 * Integration files the PostgreSQL run (TEST_DATABASE_URL) leaves out. Every file runs on SQLite; the PostgreSQL run
 * is for what the database decides: queries, triggers, summaries, locks and leases, numbering under concurrency,
 * migrations, backups. A statement log of a whole PostgreSQL run (`log_statement = all`, each test database mapped to
 * its file) showed what the files below send: the statements of the files kept, but for a few plain ones (a key's
 * revocation, a feedback row and its quota, a variant of the documents list) that Kysely writes alike for both.
 * Their subject is elsewhere, and on PostgreSQL they took 400 of the run's 1,050 s. Tests that read or alter the test
 * server's rows use `withServerDb`, and migration tests `openEmptyTestDatabase` (tests/helpers/database.ts): they run
 * on both, the built server's too.
 */
const POSTGRES_RUN_SKIPS = [
  // SQLite itself: VACUUM INTO backups and their restore.
  'backup',
  // HTTP and JSON: the tRPC door against tRPC's own adapter, the REST door's answers, headers, limits and budgets,
  // hostile or malformed requests and files, the OpenAPI documents, the SPA's preloads, the built server's start.
  ...['trpc-fork-parity', 'trpc-door', 'http', 'security-headers', 'request-budget', 'hostile-requests', 'hostile-files'],
  ...['fuzz', 'field-errors', 'invalid-characters', 'openapi', 'openapi-standard', 'spa-preloads', 'built-server'],
  ...['shutdown-under-load', 'documents-guards', 'documents-stale', 'kept-answers', 'log-secrets'],
  // Files read or written by the app: e-invoice XML and its validation, CSV and bank statements, PDFs and their mentions.
  ...['einvoice', 'einvoice-cius', 'expense-import', 'bank-large', 'legal-rules', 'template-frozen', 'transfer-qr'],
  ...['ereporting', 'ereporting-kinds', 'fec-export'],
  // Figures whose statements vat-ledger, vat-return, vat-operations, fec-books and reports send too.
  ...['fec-vat-on-receipts', 'vat', 'credit-settlement'],
  // Mail and the reminders it sends, share links, worker threads, the seed script, settings and feedback, API keys, a
  // document's exchange rate.
  ...['smtp', 'email-settings', 'mail-outbox-messages', 'document-send', 'payment-reminders', 'share', 'heavy-work'],
  ...['seed', 'settings-feedback', 'document-template-settings', 'document-exchange-rate', 'api-keys'],
].map((name) => `tests/integration/${name}.test.ts`);

/**
 * The server's build (`npm run build:server`, `vite build --ssr`): the process and the worker threads' entry, each its
 * own file in dist/server (main.js finds worker.js beside it), the code they share in chunks below. The operator
 * commands are built with them into dist/server/ops, so that a deployment with production dependencies only (the
 * Docker image) runs them with plain node: `node dist/server/ops/backup.js`.
 */
const OPERATOR_COMMANDS = ['migrate', 'plan', 'backup', 'restore', 'jobs-run', 'audit-verify', 'db-copy', 'einvoice-poll'];
const serverInputs = {
  main: 'src/server/main.ts',
  worker: 'src/server/workers/worker.ts',
  ...Object.fromEntries(OPERATOR_COMMANDS.map((name) => [`ops/${name}`, `scripts/${name}.ts`])),
};

export default defineConfig(({ isSsrBuild }) => ({
  root: '.',
  plugins: [react(), trpcNativeSpread()],
  resolve: {
    // The router's fallback for React before 18 (use-sync-external-store's shim) is React's own hook since 18: the shim's
    // code left the entry, the login page's first download.
    alias: [
      {
        find: /^use-sync-external-store\/shim\/index\.js$/,
        replacement: fileURLToPath(new URL('./src/client/lib/react-sync-store.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // dist/client/.vite/manifest.json: `npm run bench -- bundle` reads which chunks each page loads (issue 22).
    manifest: true,
    // Every browser the app supports preloads modules natively (Safari since 17): no polyfill in the login page's bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: isSsrBuild
      ? {
          input: serverInputs,
          output: {
            entryFileNames: '[name].js',
            chunkFileNames: 'chunks/[name]-[hash].js',
            // V8 keeps each module's source text in its heap while the process runs, and one accented letter stores
            // a whole file at two bytes a character: in ASCII escapes and without comments the main chunk's text
            // went from 2.4 MB to 1.0 MB of heap (2-3 MB less resident memory idle, `ps -o rss`).
            charset: 'ascii',
            comments: false,
          },
        }
      : {
          output: {
            codeSplitting: {
              groups: [
                // React, Panda's css() runtime, the few primitives every page draws and the tables the route list is built
                // from: all loaded with the entry anyway, in one file rather than a handful of tiny ones, which compress worse
                // and cost a request each (measured with `npm run bench -- bundle`).
                {
                  name: 'ui-core',
                  test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|styled-system[\\/]|src[\\/]client[\\/]components[\\/](icons|ui[\\/](button|spinner|text-field|tooltip-style))\.|src[\\/]shared[\\/](document-types|status)\./,
                },
                // What a page's data request needs beside the tRPC client (src/client/route-data.ts): one file instead of six
                // tiny ones, each a round trip on HTTP/1.1's six connections before the request can leave. Only these
                // modules: what they import (the tRPC client, the shared constants) stays where it is.
                {
                  name: 'route-data',
                  test: /src[\\/]client[\\/]route-data\.|src[\\/]shared[\\/](route-queries|list-inputs|agenda-period|calendar-dates|report-period|list-fields)\./,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
  },
  ssr: {
    // Other packages stay external (native addons among them); @trpc/server is bundled so the patch above applies.
    // zod and kysely are bundled too: loaded from node_modules they are some 300 modules, each kept by Node with its
    // source, comments included; bundled, only what the server uses is kept, once (6 MB less resident memory idle).
    noExternal: ['@trpc/server', 'zod', 'kysely'],
  },
  server: { strictPort: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // The files share the worker's modules, as the integration files do: a file imported the shared code anew
          // (the schematron, Zod's schemas, the client's modules), 90 s for the suite on one core instead of 30 s.
          isolate: false,
          setupFiles: ['tests/helpers/shared-worker-setup.ts'],
          // Bounds on a hung test, not speed checks (Vitest's 5 s default was one): `npm test` runs this suite beside the
          // PostgreSQL run and the browser tests, on 2 cores.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // With TEST_DATABASE_URL (the PostgreSQL run): migrates the template the test databases are copied from.
          globalSetup: ['tests/integration/global-setup.ts'],
          exclude: process.env.TEST_DATABASE_URL ? POSTGRES_RUN_SKIPS : [],
          // Bounds on a hung test, not speed checks: on the PostgreSQL run beside the browser tests, tests of 10–17 s
          // elsewhere took 25–30 s, and seeding an organisation's year went over 30.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // The files share the worker's modules: the server's source is imported once, not once per file (about 2 s
          // each, 4 minutes of a run). Module state is per app or per database where it matters; what tests change
          // globally (the clock, spies, fake timers) is put back after each file.
          isolate: false,
          setupFiles: ['tests/helpers/shared-worker-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // A bound on a hung test, not a speed check: on a busy 2-core host a long journey took 50 s of its 60.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Each file has its own server and SQLite file: two at a time keep both cores busy while one waits on the page
          // (measured: the suite in 131 s instead of 193 s on a loaded machine).
          fileParallelism: true,
          maxWorkers: 2,
          // The files of a worker share its modules and its Chromium (tests/helpers/browser.ts workerBrowser): the
          // server's source is transformed and imported once per worker rather than once per file (5 s of CPU each).
          // Module state is per server where it matters (caches keyed by database, the worker pool closed with its app).
          isolate: false,
          setupFiles: ['tests/helpers/shared-worker-setup.ts', 'tests/helpers/e2e-failure-setup.ts'],
        },
      },
    ],
  },
}));
