import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { base64, camt053, type GeneratedEntry } from '../helpers/bank-statements';
import { STATEMENT_MAX_BYTES } from '../../src/server/services/bank-import';

const IBAN = 'FR7630001007941234567890185';

/** A camt.053 of `count` lines of card spending and transfers over a year. */
function yearOfLines(count: number): string {
  const entries: GeneratedEntry[] = [];
  for (let n = 0; n < count; n++) {
    const date = `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
    const amount = `${n % 3 === 0 ? '' : '-'}${(1 + ((n * 37) % 90_000) / 100).toFixed(2)}`;
    entries.push({
      date,
      amount,
      label: `CB COMMERCANT ${n} PARIS CARTE 4974XXXXXXXX1234`,
      counterparty: `COMMERCANT ${n}`,
      bankId: `L${n}`,
    });
  }
  return camt053(IBAN, entries);
}

describe('a statement of 10 MB', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('imports while the server keeps answering other requests, and one over 10 MB is refused in French', async () => {
    const { session } = await registered(server.url);
    const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data as { id: number };
    let count = 16_400;
    let xml = yearOfLines(count);
    while (Buffer.byteLength(xml) > STATEMENT_MAX_BYTES) {
      count -= 200;
      xml = yearOfLines(count);
    }
    expect(Buffer.byteLength(xml)).toBeGreaterThan(9 * 1024 * 1024);

    // Another user's requests while the file is read, its lines fingerprinted, matched and written.
    const other = (await registered(server.url)).session;
    const waits: number[] = [];
    let importing = true;
    const started = performance.now();
    const upload = session
      .rest('POST', `/api/bank-accounts/${account.id}/import`, { filename: 'releve-annee.xml', content_base64: base64(xml) })
      .finally(() => {
        importing = false;
      });
    const polling = (async () => {
      while (importing) {
        const asked = performance.now();
        const answer = await other.rest('GET', '/api/bank-accounts');
        expect(answer.status).toBe(200);
        waits.push(performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const imported = await upload;
    await polling;
    const took = performance.now() - started;
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(201);
    expect(imported.body.data).toMatchObject({ imported: count, duplicates: 0, rejected: [] });
    const longest = Math.max(...waits);
    console.info(
      `10 MB statement: ${count} lines (${(Buffer.byteLength(xml) / 1024 / 1024).toFixed(2)} MB) imported in ${Math.round(took)} ms; ` +
        `${waits.length} other requests meanwhile, the longest ${Math.round(longest)} ms`,
    );
    // The others were answered all along, never held for the length of the import.
    expect(waits.length).toBeGreaterThan(5);
    expect(longest).toBeLessThan(Math.max(1500, took / 3));

    const tooLarge = await session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
      filename: 'releve-trop-gros.xml',
      content_base64: base64(`${xml}${' '.repeat(STATEMENT_MAX_BYTES - Buffer.byteLength(xml) + 10)}`),
    });
    expect(tooLarge.status).toBe(413);
    expect(String(tooLarge.body.messages)).toBe('Le relevé dépasse 10 Mo : découpez-le par période');
    expect((await session.rest('GET', `/api/bank-transactions?account_id=${account.id}&per_page=1`)).body.total).toBe(count);
  });
});
