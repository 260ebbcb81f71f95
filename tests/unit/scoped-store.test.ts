import { describe, expect, it } from 'vitest';
import { ScopedStore } from '../../src/server/scoped-store';

describe('a store entered only by some requests (scoped-store.ts)', () => {
  it('gives each scope its own store, nested and concurrent, and none outside', async () => {
    const store = new ScopedStore<string>();
    const seen: (string | undefined)[] = [];
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await Promise.all([
      store.run('a', async () => {
        await later(5);
        seen.push(store.getStore());
        await store.run('inner', async () => seen.push(store.getStore()));
        seen.push(store.getStore());
      }),
      store.run('b', async () => {
        await later(1);
        seen.push(store.getStore());
      }),
    ]);
    expect(seen).toEqual(['b', 'a', 'inner', 'a']);
    expect(store.getStore()).toBeUndefined();
    expect(store.exit(() => store.getStore())).toBeUndefined();
  });

  it('is switched off once its last scope has ended: work it left running reads no store, a new scope reads its own', async () => {
    const store = new ScopedStore<string>();
    let leftRunning: Promise<string | undefined> | undefined;
    await store.run('write', async () => {
      leftRunning = new Promise((resolve) => setTimeout(() => resolve(store.getStore()), 10));
    });
    expect(await leftRunning).toBeUndefined();
    expect(await store.run('next', async () => store.getStore())).toBe('next');
    expect(store.getStore()).toBeUndefined();
  });

  it('ends its scope when the work fails', async () => {
    const store = new ScopedStore<number>();
    await expect(
      store.run(1, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(store.getStore()).toBeUndefined();
    expect(await store.run(2, async () => store.getStore())).toBe(2);
  });
});
