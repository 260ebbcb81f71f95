import { describe, expect, it } from 'vitest';
import { ScopedStore } from '../../src/server/scoped-store';
import { actingFor, actingOrganization } from '../../src/server/db/write-scope';

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

  it('work a scope left running never reads a later scope; the acting organisation is gone once the scope ended', async () => {
    const store = new ScopedStore<string>();
    let leftRunning: Promise<string | undefined> | undefined;
    await store.run('write', async () => {
      leftRunning = new Promise((resolve) => setTimeout(() => resolve(store.getStore()), 10));
    });
    // Node 20 and 22 switch the store off (the left work reads none); Node 24's async context frames keep the ended
    // scope's store for it. Never the scope that is open meanwhile.
    const [left, next] = await Promise.all([
      leftRunning,
      store.run('next', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return store.getStore();
      }),
    ]);
    expect([undefined, 'write']).toContain(left);
    expect(next).toBe('next');
    expect(store.getStore()).toBeUndefined();

    let acting: Promise<number | null> | undefined;
    await actingFor(7, async () => {
      acting = new Promise((resolve) => setTimeout(() => resolve(actingOrganization()), 10));
      expect(actingOrganization()).toBe(7);
    });
    expect(await acting).toBeNull();
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
