import { sql, Kysely, DummyDriver, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { approximateBytes, KeptAnswers } from '../../src/server/kept-answers';
import { writesData } from '../../src/server/db/data-generation';
import type { Database } from '../../src/server/db/schema';
import { defined } from '../../src/shared/defined';

/** A generation moved by hand, as writes would move it. */
const data = () => {
  let generation = 0;
  return { current: () => generation, write: () => generation++ };
};

describe('KeptAnswers (issue 22)', () => {
  it('answers a kept value only at the generation it was read at', () => {
    const d = data();
    const kept = new KeptAnswers(d);
    kept.set('a', 0, { total: 1 });
    expect(kept.get('a', 0)).toEqual({ total: 1 });
    d.write();
    expect(kept.get('a', d.current())).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('does not keep an answer whose generation moved while it was read', () => {
    const d = data();
    const kept = new KeptAnswers(d);
    const generation = d.current();
    d.write(); // a write while the procedure ran
    kept.set('a', generation, { total: 1 });
    expect(kept.size).toBe(0);
  });

  it('freezes what it keeps, so that no request changes the next one’s answer', () => {
    const kept = new KeptAnswers(data());
    const answer = { total: 1, data: [{ number: 'F-1' }] };
    kept.set('a', 0, answer);
    expect(() => {
      defined((kept.get('a', 0) as typeof answer).data[0]).number = 'F-2';
    }).toThrow(TypeError);
  });

  it('stays within its memory budget, forgetting the least recently used first', () => {
    const kept = new KeptAnswers(data(), 80_000);
    const answer = (i: number) => ({ i, text: 'x'.repeat(4000) }); // about 8 KB each
    for (let i = 0; i < 8; i++) kept.set(`k${i}`, 0, answer(i));
    kept.get('k0', 0); // used: kept
    for (let i = 8; i < 12; i++) kept.set(`k${i}`, 0, answer(i));
    expect(kept.get('k0', 0)).toMatchObject({ i: 0 });
    expect(kept.get('k1', 0)).toBeUndefined();
    expect(kept.size).toBeLessThanOrEqual(9);
    kept.set('huge', 0, { text: 'x'.repeat(20_000) }); // over an eighth of the budget: never kept
    expect(kept.get('huge', 0)).toBeUndefined();
  });

  it('estimates at least the bytes of the JSON text, whatever the answer', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        expect(approximateBytes(value)).toBeGreaterThanOrEqual(JSON.stringify(value)?.length ?? 0);
      }),
    );
  });
});

describe('writesData: what starts a new generation', () => {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  const cases: [string, { toOperationNode(): unknown }, boolean][] = [
    ['a read', db.selectFrom('documents').selectAll(), false],
    ['a document', db.updateTable('documents').set({ note: '' }), true],
    ['a customer', db.insertInto('customers').values({ name: 'x' } as never), true],
    ['a payment removed', db.deleteFrom('payments'), true],
    ['a session’s last visit', db.updateTable('sessions').set({ last_seen_at: '' }), false],
    ['a rate window', db.deleteFrom('rate_limits'), false],
    ['a scheduler lease', db.updateTable('scheduler_jobs').set({ locked_until: null } as never), false],
    ['the search index, in an sql template', sql`delete from search_index where rowid = ${1}`, true],
    ['a rate window, in an sql template', sql`insert into rate_limits (name) values (${'x'})`, false],
    ['a select in an sql template', sql`select 1`, false],
  ];
  it.each(cases)('%s', (_title, query, writes) => {
    expect(writesData(query.toOperationNode() as never)).toBe(writes);
  });
});
