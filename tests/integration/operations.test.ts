import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/** What an operator watches — the health path, request ids in the logs, Prometheus metrics. */
describe('operations: health, request ids, metrics', () => {
  const TOKEN = 'jeton-de-metriques-0123456789';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => server.close());

  const metricsText = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    return res.text();
  };

  it('GET /api/health answers without a session, and on /api/trpc too', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' });
    const trpc = await fetch(`${server.url}/api/trpc/system.health`);
    expect(trpc.status).toBe(200);
  });

  it('every answer carries a request id: a new one, or the proxy’s when it is a plain token', async () => {
    const fresh = await fetch(`${server.url}/api/health`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${server.url}/api/health`, { headers: { 'X-Request-Id': 'lb-42.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-42.abc');
    const forged = await fetch(`${server.url}/api/health`, { headers: { 'X-Request-Id': 'a b"c' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/metrics needs the token: 401 without or with a wrong one, in French', async () => {
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect((await none.json()).messages).toContain('Jeton de métriques absent ou invalide');
    const wrong = await fetch(`${server.url}/metrics`, { headers: { Authorization: 'Bearer jeton-de-metriques-012345678X' } });
    expect(wrong.status).toBe(401);
  });

  it('counts requests by route template, never by raw path', async () => {
    await fetch(`${server.url}/api/customers/123456`);
    await fetch(`${server.url}/api/trpc/system.version`);
    const text = await metricsText();
    expect(text).toMatch(/facturier_http_request_duration_seconds_count\{route="\/api\/health",method="GET",status="2xx"\} [1-9]/);
    expect(text).toContain('route="/api/customers/{id}",method="GET",status="4xx"');
    expect(text).toContain('route="trpc:system.version"');
    expect(text).not.toContain('123456');
    expect(text).toMatch(/facturier_process_resident_memory_bytes \d+/);
    expect(text).toMatch(/facturier_database_size_bytes \d+/);
  });

  it('a malformed %-escape is counted as such, and the process keeps answering', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: new URL(server.url).port, path: '/api/documents/%E0%A4%A' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(400);
    expect(await metricsText()).toContain('route="api:malformed",method="GET",status="4xx"');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('scheduler runs are measured by job and status', async () => {
    await server.app.scheduler.runDue(['recurring-expenses']);
    expect(await metricsText()).toMatch(/facturier_job_run_duration_seconds_count\{job="recurring-expenses",status="ok"\} [1-9]/);
  });

  it('a database that does not answer makes the health path 503, so a load balancer takes the process out', async () => {
    await server.app.connection.close(); // the file or the pool, whichever this run uses
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ messages: 'Base de données injoignable' });
  });
});

describe('operations without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('/metrics does not exist', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: 'Bearer anything-at-all-here' } });
    expect(res.status).toBe(404);
  });
});
