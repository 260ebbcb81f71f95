import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/server/auth/tokens';
import { defined } from '../../src/shared/defined';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';

/** The server process as run in production, its log lines read from its own stdout and stderr. */
describe('the access and error logs never hold a URL’s key whole', () => {
  let child: ChildProcess;
  let dir: string;
  let url: string;
  let output = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-log-secrets-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `file:${path.join(dir, 'db.sqlite')}`,
        DATA_DIR: dir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PLAN_LIMITS: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    defined(child.stdout, 'child.stdout').on('data', (c: Buffer) => (output += c.toString()));
    defined(child.stderr, 'child.stderr').on('data', (c: Buffer) => (output += c.toString()));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /écoute sur (http:\/\/\S+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(defined(match[1], 'match[1]'));
        }
      }, 20);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('masks share uuids, download links and calendar tokens in the path field, keeping their first 4 characters', async () => {
    const { session } = await registered(url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Prestation', 1, 100)] });
    const feed = (await session.rest('POST', '/api/appointments/feed')).body.data as { url: string };
    const token = defined(/\/api\/calendar\/([\w-]+)\.ics$/.exec(feed.url)?.[1], 'calendar token');
    const unknownToken = generateToken();
    const unknownUuid = randomUUID();

    const visits: [string, string][] = [
      [`/api/share/${invoice.uuid}`, `/api/share/${invoice.uuid.slice(0, 4)}…`],
      [`/api/share/${invoice.uuid}/quote`, `/api/share/${invoice.uuid.slice(0, 4)}…/quote`],
      [`/api/share/${unknownUuid}/accept`, `/api/share/${unknownUuid.slice(0, 4)}…/accept`],
      [`/share/${invoice.uuid}`, `/share/${invoice.uuid.slice(0, 4)}…`],
      [`/documents/download/${unknownUuid}`, `/documents/download/${unknownUuid.slice(0, 4)}…`],
      [`/api/calendar/${token}.ics`, `/api/calendar/${token.slice(0, 4)}….ics`],
      [`/api/calendar/${unknownToken}.ics`, `/api/calendar/${unknownToken.slice(0, 4)}….ics`],
    ];
    const statuses: number[] = [];
    for (const [visit] of visits) {
      const method = visit.endsWith('/accept') ? 'POST' : 'GET';
      statuses.push(
        (
          await fetch(`${url}${visit}`, {
            method,
            headers: { 'content-type': 'application/json' },
            body: method === 'POST' ? '{}' : undefined,
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]); // the real ones were served…
    expect(statuses[5]).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the last lines are written after the answers

    const lines = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { path?: string });
    for (const [visit, logged] of visits) {
      expect(
        lines.map((l) => l.path),
        visit,
      ).toContain(logged);
    }
    // …and no line, access or error, holds any of the keys whole.
    for (const secret of [invoice.uuid, unknownUuid, token, unknownToken]) expect(output).not.toContain(secret);
    // What is not a key is written as it came.
    expect(lines.map((l) => l.path)).toContain('/api/auth/register');
  });
});
