import { sql, Kysely, DummyDriver, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { answerBytes, approximateBytes, KeptAnswers } from '../../src/server/kept-answers';
import { clock } from '../../src/server/clock';
import { statementWrite, writesData } from '../../src/server/db/data-generation';
import type { Database } from '../../src/server/db/schema';
import { defined } from '../../src/shared/defined';

/** A generation moved by hand, as writes would move it. */
const data = () => {
  let generation = 0;
  return {
    current: (_organizationId: number) => generation,
    unchangedSince: (_organizationId: number, read: number) => read === generation,
    write: () => generation++,
  };
};

describe('KeptAnswers', () => {
  it('answers a kept value only at the generation it was read at', () => {
    const d = data();
    const kept = new KeptAnswers(d);
    kept.set('a', 1, 0, { total: 1 });
    expect(kept.get('a', 0)).toEqual({ total: 1 });
    d.write();
    expect(kept.get('a', d.current(1))).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('does not keep an answer whose generation moved while it was read', () => {
    const d = data();
    const kept = new KeptAnswers(d);
    const generation = d.current(1);
    d.write(); // a write while the procedure ran
    kept.set('a', 1, generation, { total: 1 });
    expect(kept.size).toBe(0);
  });

  it('freezes what it keeps, so that no request changes the next one’s answer', () => {
    const kept = new KeptAnswers(data());
    const answer = { total: 1, data: [{ number: 'F-1' }] };
    kept.set('a', 1, 0, answer);
    expect(() => {
      defined((kept.get('a', 0) as typeof answer).data[0]).number = 'F-2';
    }).toThrow(TypeError);
  });

  it('stays within its memory budget, forgetting the least recently used first', () => {
    const kept = new KeptAnswers(data(), 80_000);
    const answer = (i: number) => ({ i, text: 'x'.repeat(4000) }); // about 8 KB each
    for (let i = 0; i < 8; i++) kept.set(`k${i}`, 1, 0, answer(i));
    kept.get('k0', 0); // used: kept
    for (let i = 8; i < 12; i++) kept.set(`k${i}`, 1, 0, answer(i));
    expect(kept.get('k0', 0)).toMatchObject({ i: 0 });
    expect(kept.get('k1', 0)).toBeUndefined();
    expect(kept.size).toBeLessThanOrEqual(9);
    kept.set('huge', 1, 0, { text: 'x'.repeat(20_000) }); // over an eighth of the budget: never kept
    expect(kept.get('huge', 0)).toBeUndefined();
  });

  it('merges concurrent misses of one answer into one reading, and shares its answer', async () => {
    const kept = new KeptAnswers(data());
    let readings = 0;
    let finish: () => void = () => {};
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const read = async () => {
      readings++;
      await slow;
      return { ok: true as const, data: { total: 3 } };
    };
    const answers = Promise.all(Array.from({ length: 20 }, () => kept.answer('a', 1, read)));
    finish();
    const found = await answers;
    expect(readings).toBe(1);
    expect(found.filter((f) => 'read' in f)).toHaveLength(1);
    for (const f of found) expect('kept' in f ? f.kept : f.read.data).toEqual({ total: 3 });
    expect(kept.counts).toMatchObject({ read: 1, shared: 19 });
    expect(await kept.answer('a', 1, read)).toEqual({ kept: { total: 3 } });
    expect(readings).toBe(1);
  });

  it('never shares nor keeps a failed reading: each waiting request reads on its own', async () => {
    const kept = new KeptAnswers(data());
    let readings = 0;
    let finish: () => void = () => {};
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const failing = async () => {
      readings++;
      if (readings === 1) {
        await slow;
        return { ok: false as const };
      }
      return { ok: true as const, data: { total: readings } };
    };
    const answers = Promise.all(Array.from({ length: 3 }, () => kept.answer('a', 1, failing)));
    finish();
    const found = await answers;
    expect(readings).toBe(3); // the first, then each of the two that waited on it
    expect(found[0]).toEqual({ read: { ok: false } });
    expect(found.slice(1).every((f) => 'read' in f && f.read.ok)).toBe(true);
    // A reading that throws is not shared either, and leaves no flight behind.
    const throwing = kept.answer('b', 1, async () => {
      throw new Error('SQLITE_BUSY');
    });
    const waiting = kept.answer('b', 1, async () => ({ ok: true as const, data: 'ok' }));
    await expect(throwing).rejects.toThrow('SQLITE_BUSY');
    expect(await waiting).toEqual({ read: { ok: true, data: 'ok' } });
  });

  it('never merges a miss with a reading begun at an older generation', async () => {
    const d = data();
    const kept = new KeptAnswers(d);
    let finish: () => void = () => {};
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const before = kept.answer('a', 1, async () => {
      await slow;
      return { ok: true as const, data: 'before the write' };
    });
    d.write();
    const after = kept.answer('a', 1, async () => ({ ok: true as const, data: 'after the write' }));
    finish();
    expect(await before).toEqual({ read: { ok: true, data: 'before the write' } });
    expect(await after).toEqual({ read: { ok: true, data: 'after the write' } });
  });

  it('keeps an answer whose reading named a term until that instant only, the earliest of those named', async () => {
    const realNow = clock.now;
    try {
      clock.now = () => new Date('2026-11-23T09:00:00Z');
      const kept = new KeptAnswers(data());
      const read = async (term: { endsAt(instant: string | null): void }) => {
        term.endsAt(null);
        term.endsAt('2026-11-23T12:00:00Z');
        term.endsAt('2026-11-23T10:00:00Z');
        return { ok: true as const, data: 'two seats' };
      };
      expect(await kept.answer('a', 1, read)).toEqual({ read: { ok: true, data: 'two seats' } });
      clock.now = () => new Date('2026-11-23T09:59:59.999Z');
      expect(kept.get('a', 0)).toBe('two seats');
      clock.now = () => new Date('2026-11-23T10:00:00Z');
      expect(kept.get('a', 0)).toBeUndefined();
      expect(kept.size).toBe(0);
    } finally {
      clock.now = realNow;
    }
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

describe('statementWrite: whose data a write changes, when the statement says so', () => {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  const cases: [string, { toOperationNode(): unknown }, { table: string | null; organizations: number[] | null } | null][] = [
    [
      'an update with its organisation',
      db.updateTable('documents').set({ note: '' }).where('id', '=', 3).where('organization_id', '=', 7),
      { table: 'documents', organizations: [7] },
    ],
    [
      'a delete of two organisations',
      db.deleteFrom('customers').where('organization_id', 'in', [7, 8]),
      { table: 'customers', organizations: [7, 8] },
    ],
    [
      'an update by id only',
      db.updateTable('documents').set({ note: '' }).where('id', '=', 3),
      { table: 'documents', organizations: null },
    ],
    [
      'an organisation under an OR',
      db
        .updateTable('documents')
        .set({ note: '' })
        .where((eb) => eb.or([eb('organization_id', '=', 7), eb('id', '=', 3)])),
      { table: 'documents', organizations: null },
    ],
    [
      'another table’s organisation',
      db
        .updateTable('documents')
        .set({ note: '' })
        .where('customers.organization_id' as never, '=', 7 as never),
      { table: 'documents', organizations: null },
    ],
    [
      'an insert of rows',
      db.insertInto('customers').values([
        { organization_id: 7, name: 'a' },
        { organization_id: 9, name: 'b' },
      ] as never),
      { table: 'customers', organizations: [7, 9] },
    ],
    [
      'an upsert on its organisation',
      db
        .insertInto('counters')
        .values({ organization_id: 7, name: 'n', value: 1 })
        .onConflict((oc) => oc.columns(['organization_id', 'name']).doUpdateSet({ value: 2 })),
      { table: 'counters', organizations: [7] },
    ],
    [
      'an upsert that may hit another organisation’s row',
      db
        .insertInto('counters')
        .values({ organization_id: 7, name: 'n', value: 1 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: 2 })),
      { table: 'counters', organizations: null },
    ],
    [
      'an organisation’s own row',
      db.updateTable('organizations').set({ name: 'x' }).where('id', '=', 7),
      { table: 'organizations', organizations: [7] },
    ],
    ['a document’s lines', db.deleteFrom('document_items').where('document_id', '=', 3), { table: 'document_items', organizations: null }],
    [
      'the search index, in an sql template',
      sql`delete from search_index where rowid = ${1}`,
      { table: 'search_index', organizations: null },
    ],
    ['a session', db.updateTable('sessions').set({ last_seen_at: '' }).where('organization_id', '=', 7), null],
  ];
  it.each(cases)('%s', (_title, query, write) => {
    expect(statementWrite(query.toOperationNode() as never)).toEqual(write);
  });
});

describe('answerBytes: a kept answer encoded once per door', () => {
  const json = (answer: unknown) => JSON.stringify(answer);

  it('gives the same bytes again for the same kept answer, each form its own, in UTF-8', () => {
    const answer = Object.freeze({ name: 'Facture d’acompte', total: '1 234,56 €' });
    const rest = answerBytes('rest', answer, json);
    expect(answerBytes('rest', answer, json)).toBe(rest);
    expect(rest.toString('utf8')).toBe(JSON.stringify(answer));
    expect(rest.length).toBe(Buffer.byteLength(JSON.stringify(answer)));
    const batch = answerBytes('trpcBatch', answer, (a) => `[${json(a)}]`);
    expect(batch).not.toBe(rest);
    expect(batch.toString('utf8')).toBe(`[${JSON.stringify(answer)}]`);
  });

  it('holds its own memory, not a slice of a pool that it would keep alive', () => {
    const small = answerBytes('trpc', Object.freeze({ n: 1 }), json);
    expect(small.byteOffset).toBe(0);
    expect(small.buffer.byteLength).toBe(small.length);
  });

  it('encodes an answer that is not kept (not frozen) anew each time', () => {
    const answer = { n: 1 };
    const first = answerBytes('rest', answer, json);
    answer.n = 2;
    expect(answerBytes('rest', answer, json).toString()).toBe('{"n":2}');
    expect(first.toString()).toBe('{"n":1}');
  });
});
