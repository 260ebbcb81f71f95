import { EnvError, loadEnv, type Env } from './env';
import { createApp, SHUTDOWN_BUDGET_MS } from './app';
import { logger } from './logger';

/** The process: env → database (migrated) → HTTP; SIGTERM/SIGINT stop it within SHUTDOWN_BUDGET_MS (app.close()). */
async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const started = performance.now();
  const app = await createApp(env);
  const url = await app.listen();
  process.stdout.write(`Facturier écoute sur ${url} (public : ${env.appUrl}) — prêt en ${Math.round(performance.now() - started)} ms\n`);
  // The e-invoice validator (SaxonJS and the rules, in a worker thread: about 50 MB) is loaded by the first issue,
  // which waits about a second for it, rather than held by every process from its start.

  // Bounded (README "Deploy"): a second signal, or a stop still running after SHUTDOWN_BUDGET_MS, ends the process.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.error(`shutdown: ${signal} again, exiting now while ${app.stillRunning()}`);
      process.exit(1);
    }
    stopping = true;
    const begun = performance.now();
    process.stdout.write(`${signal} reçu : arrêt propre…\n`);
    setTimeout(() => {
      logger.error(`shutdown: not done after ${SHUTDOWN_BUDGET_MS / 1000} s, exiting while ${app.stillRunning()}`);
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS).unref();
    app.close().then(
      () => {
        process.stdout.write(`Arrêté en ${Math.round(performance.now() - begun)} ms\n`);
        process.exit(0);
      },
      (error) => {
        logger.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', reason));

main().catch((error) => {
  process.stderr.write(`Le serveur n’a pas pu démarrer : ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
