import { EnvError, loadEnv, type Env } from './env';
import { createApp } from './app';
import { logger } from './logger';
import { warmEinvoiceValidator } from './einvoice/issue-check';

/** The process: env → database (migrated) → HTTP; SIGTERM/SIGINT finish in-flight requests and close the database. */
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
  // After listening: the server answers at once, the validator every issue runs is ready about a second later.
  warmEinvoiceValidator();

  const shutdown = (signal: string) => {
    process.stdout.write(`${signal} reçu : arrêt propre…\n`);
    app.close().then(
      () => process.exit(0),
      (error) => {
        logger.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', reason));

main().catch((error) => {
  process.stderr.write(`Le serveur n’a pas pu démarrer : ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
