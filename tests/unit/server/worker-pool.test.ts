import { afterEach, describe, expect, it } from 'vitest';
import { TaskFailed, TaskRefused, WorkerPool } from '../../../src/server/workers/pool';

// A worker of test tasks, in plain JavaScript: the pool's own behaviour, without the application's tasks.
const TEST_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, task, args }) => {
  if (task === 'echo') return parentPort.postMessage({ id, ok: true, value: args[0] });
  if (task === 'spin') {
    const end = Date.now() + args[0];
    while (Date.now() < end);
    return parentPort.postMessage({ id, ok: true, value: 'done' });
  }
  if (task === 'hog') {
    const kept = [];
    for (;;) kept.push(new Array(1e6).fill(Math.random()));
  }
  parentPort.postMessage({ id, ok: false, failure: { name: 'Error', message: 'unknown task ' + task } });
});
`;

let pool: WorkerPool | undefined;
const newPool = (size = 1, maxQueue = 4) => {
  pool = new WorkerPool({ size, maxQueue, resourceLimits: { maxOldGenerationSizeMb: 32 }, entry: TEST_WORKER, eval: true });
  return pool;
};
afterEach(() => pool?.close());

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('the worker pool', () => {
  it('runs tasks in a worker and answers their results, their own errors as TaskFailed', async () => {
    const p = newPool();
    expect(await p.run('echo', [{ a: [1, 2] }], { timeoutMs: 10_000 })).toEqual({ a: [1, 2] });
    const failed = await refusalOf(p.run('nope', [], { timeoutMs: 10_000 }));
    expect(failed).toBeInstanceOf(TaskFailed);
    expect(p.stats()).toMatchObject({ workers: 1, busy: 0, completed: 1, failed: 1 });
  });

  it('stops a task over its time, replaces the worker, and runs the next task', async () => {
    const p = newPool();
    const started = performance.now();
    const late = await refusalOf(p.run('spin', [60_000], { timeoutMs: 300 }));
    expect(late).toBeInstanceOf(TaskRefused);
    expect((late as TaskRefused).reason).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(30_000); // the task alone would spin 60 s
    expect(await p.run('echo', ['encore'], { timeoutMs: 10_000 })).toBe('encore');
    expect(p.stats()).toMatchObject({ timedOut: 1, completed: 1 });
  });

  it('answers `memory` for a task over the worker’s heap, and keeps serving', async () => {
    const p = newPool();
    const hog = await refusalOf(p.run('hog', [], { timeoutMs: 60_000 }));
    expect((hog as TaskRefused).reason).toBe('memory');
    expect(await p.run('echo', [1], { timeoutMs: 10_000 })).toBe(1);
    expect(p.stats().outOfMemory).toBe(1);
  });

  it('queues a burst up to its bound and refuses past it at once (`busy`), the queued tasks still run', async () => {
    const p = newPool(1, 2);
    const running = p.run('spin', [300], { timeoutMs: 10_000 });
    const queued = [p.run('echo', [1], { timeoutMs: 10_000 }), p.run('echo', [2], { timeoutMs: 10_000 })];
    expect(p.stats()).toMatchObject({ busy: 1, queued: 2 });
    const refused = await refusalOf(p.run('echo', [3], { timeoutMs: 10_000 }));
    expect((refused as TaskRefused).reason).toBe('busy');
    expect(await Promise.all([running, ...queued])).toEqual(['done', 1, 2]);
    expect(p.stats()).toMatchObject({ refusedBusy: 1, queued: 0 });
  });

  it('refuses what waits and what runs when closed', async () => {
    const p = newPool(1, 2);
    const running = refusalOf(p.run('spin', [5_000], { timeoutMs: 10_000 }));
    const waiting = refusalOf(p.run('echo', [1], { timeoutMs: 10_000 }));
    await p.close();
    expect(((await running) as TaskRefused).reason).toBe('closed');
    expect(((await waiting) as TaskRefused).reason).toBe('closed');
  });
});
