import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is switched off while no scope of it is open. On Node 20 an enabled store installs promise
 * hooks that run on every promise of the process, every request's included (~8 % of a kept read's CPU in
 * `npm run bench -- scale`); a store entered only by some requests (the writes) costs the others nothing once those
 * have ended. Code that outlives its scope (a timer, a delivery) then reads no store, as it would once the scope is
 * closed.
 */
export class ScopedStore<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private open = 0;

  /** Runs `work` with `store` as the current one, until the promise it returns settles. */
  async run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.open++;
    try {
      return await this.storage.run(store, work);
    } finally {
      if (--this.open === 0) this.storage.disable();
    }
  }

  /** Runs `work` outside any scope of this store. */
  exit<R>(work: () => R): R {
    return this.storage.exit(work);
  }

  getStore(): T | undefined {
    return this.storage.getStore();
  }
}
