import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { SERVER_KINDS, startServer, type ServerUnderTest } from '../helpers/built-server';
import { CONTENT_SECURITY_POLICY } from '../../src/server/http/security-headers';

/** A raw GET: fetch() would re-encode a malformed path before sending it. */
function rawGet(url: string, pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: new URL(url).port, path: pathname }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe.each(SERVER_KINDS)('security headers, on the %s server', (kind) => {
  let server: ServerUnderTest;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1);');
    server = await startServer(kind, { env: { CLIENT_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it.each([
    ['the SPA', '/invoices'],
    ['the public share page', '/share/0b5e4c9e-6a43-4a0e-9a43-2f1d6f3c1b11'],
    ['an asset', '/assets/app-abc123.js'],
    ['an API answer', '/api/version'],
    ['an API error', '/api/customers'],
    ['a missing file', '/assets/absent.js'],
  ])('%s (%s) cannot be framed, runs no foreign or inline script, and leaks no referrer', async (_what, p) => {
    const r = await fetch(`${server.url}${p}`);
    await r.arrayBuffer();
    expect(r.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(r.headers.get('permissions-policy')).toContain('camera=()');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });

  it('the policy has no unsafe script source and forbids framing', () => {
    const script = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });

  it.each(['/api/documents/%E0%A4%A', '/api/trpc/%E0%A4%A', '/%E0%A4%A', '/documents/download/%E0%A4%A', '/uploads/logos/%E0%A4%A'])(
    'a malformed percent-escape in %s is a French 400, and the server keeps answering',
    async (p) => {
      const r = await rawGet(server.url, p);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).messages).toBe('Adresse mal formée : un code %XX ne se lit pas');
      expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
    },
  );
});

describe('HSTS behind https', () => {
  it('is sent on every answer when APP_URL is https, never over plain http', async () => {
    const server = await startTestServer({ env: { APP_URL: 'https://facturier.example' } });
    try {
      const r = await fetch(`${server.url}/api/version`);
      expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await server.close();
    }
  });
});
