import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError } from '../errors';
import { type PoolStats, TaskFailed, TaskRefused, type WorkerEntry, WorkerPool } from './pool';
import { taskLabels } from './task-labels';
import type { TaskName, Tasks } from './tasks';

export type HeavyWorkConfig = {
  /** Worker threads at most (HEAVY_WORKERS). */
  workers: number;
  /** A task's time budget (HEAVY_TASK_SECONDS), its wait in the queue not included. */
  taskSeconds: number;
  /** A worker's JavaScript heap (HEAVY_WORKER_MEMORY_MB). */
  memoryMb: number;
};

export const DEFAULT_HEAVY_WORK: HeavyWorkConfig = { workers: 2, taskSeconds: 120, memoryMb: 1024 };

/**
 * Tasks waiting per worker at most: a burst (a user issuing fifty invoices at once, each validated in about a tenth of
 * a second) waits its turn; a flood past it is refused at once rather than queued for minutes.
 */
const QUEUE_PER_WORKER = 64;

/**
 * The worker entry next to this module: the TypeScript source under Vitest and tsx (loaded through tsx), the bundled
 * dist/server/worker.js in the built server (this module is then inside main.js or one of its chunks).
 */
function workerEntry(): WorkerEntry {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Node 20 applies no `--import tsx` of execArgv to a worker's entry: tsx is registered first, then the entry loaded.
    // The ESM entry of tsx's API (require.resolve finds its CommonJS twin next to it).
    const tsx = pathToFileURL(
      createRequire(here)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const source = JSON.stringify(new URL('./worker.ts', here).href);
    return { entry: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${source}); });`, eval: true };
  }
  for (const candidate of ['./worker.js', '../worker.js']) {
    const entry = new URL(candidate, here);
    if (fs.existsSync(entry)) return { entry, eval: false };
  }
  throw new Error(`worker.js introuvable à côté de ${here} : reconstruisez le serveur (npm run build:server)`);
}

let config = DEFAULT_HEAVY_WORK;
let pool: WorkerPool | undefined;

/** Set by the app from its environment; applies to the workers started from now on. */
export function configureHeavyWork(next: HeavyWorkConfig): void {
  config = next;
}

function currentPool(): WorkerPool {
  if (!pool) {
    pool = new WorkerPool({
      size: config.workers,
      maxQueue: config.workers * QUEUE_PER_WORKER,
      resourceLimits: { maxOldGenerationSizeMb: config.memoryMb },
      ...workerEntry(),
    });
  }
  return pool;
}

/** Stops the workers (what runs is abandoned); the next task starts a new pool. */
export async function closeHeavyWork(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

/** For /metrics: null until the first heavy task of the process. */
export function heavyWorkStats(): PoolStats | null {
  return pool?.stats() ?? null;
}

function refusal(task: TaskName, error: TaskRefused): AppError {
  const label = taskLabels[task];
  switch (error.reason) {
    case 'timeout':
      return new AppError(
        'SERVICE_UNAVAILABLE',
        `${label} a dépassé le temps qui lui est accordé (${config.taskSeconds} s) et a été interrompue : rien n’a été enregistré. Réessayez ; si cela se reproduit, le document est sans doute trop volumineux.`,
      );
    case 'memory':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `${label} a dépassé la mémoire qui lui est accordée (${config.memoryMb} Mo) et a été interrompue : rien n’a été enregistré. Le document est trop volumineux pour être traité.`,
      );
    case 'busy':
      return new AppError(
        'SERVICE_UNAVAILABLE',
        `Le serveur traite déjà trop de travaux lourds (validations, imports, PDF) : ${label.charAt(0).toLowerCase()}${label.slice(1)} n’a pas été lancée. Réessayez dans quelques secondes.`,
      );
    case 'closed':
      return new AppError(
        'SERVICE_UNAVAILABLE',
        `Le serveur s’arrête : ${label.charAt(0).toLowerCase()}${label.slice(1)} n’a pas abouti. Réessayez dans un instant.`,
      );
  }
}

/** A worker's error back as what it was: a French AppError stays one (its code and messages), anything else a 500. */
function rethrown(error: TaskFailed): Error {
  const { failure } = error;
  if (failure.name === 'AppError' && failure.code && failure.messages)
    return new AppError(failure.code as TRPC_ERROR_CODE_KEY, failure.messages);
  const copy = new Error(failure.message);
  copy.name = failure.name;
  return copy;
}

/**
 * Runs a task of tasks.ts in a worker thread, within the time and memory budget; over it, or when too many wait, a
 * French 503/413 names the task. `transfer` hands byte buffers over without copying (the caller must not use them).
 */
export async function runHeavy<K extends TaskName>(
  task: K,
  args: Parameters<Tasks[K]>,
  transfer: ArrayBuffer[] = [],
): Promise<Awaited<ReturnType<Tasks[K]>>> {
  try {
    return await currentPool().run<Awaited<ReturnType<Tasks[K]>>>(task, args, { timeoutMs: config.taskSeconds * 1000, transfer });
  } catch (error) {
    if (error instanceof TaskRefused) throw refusal(task, error);
    if (error instanceof TaskFailed) throw rethrown(error);
    throw error;
  }
}
