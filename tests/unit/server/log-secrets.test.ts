import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskSecrets } from '../../../src/server/log-secrets';
import { logger } from '../../../src/server/logger';

const UUID = '3f6c1a52-8d3e-4b7a-9f0e-2c4d5e6f7a8b';
const TOKEN = 'Zk3vQ8_mLr2xT9wYb4NcHd7uFp1sEa6gJo5iKq0VhW-';

afterEach(() => {
  vi.restoreAllMocks();
  logger.configure({ level: 'info' }); // the default
});

describe('maskSecrets', () => {
  it.each([
    [`/api/share/${UUID}`, '/api/share/3f6c…'],
    [`/api/share/${UUID}/accept`, '/api/share/3f6c…/accept'],
    [`/share/${UUID}`, '/share/3f6c…'],
    [`http://127.0.0.1:3000/share/${UUID}?print=1`, 'http://127.0.0.1:3000/share/3f6c…?print=1'],
    [`/documents/download/${UUID}`, '/documents/download/3f6c…'],
    [`/api/calendar/${TOKEN}.ics`, '/api/calendar/Zk3v….ics'],
    [`https://x.fr/auth/password/reset?token=${TOKEN}`, 'https://x.fr/auth/password/reset?token=Zk3v…'],
    [`https://x.fr/invitation?lang=fr&token=${TOKEN}#haut`, 'https://x.fr/invitation?lang=fr&token=Zk3v…#haut'],
    [`navigation to "http://h/share/${UUID}" failed`, 'navigation to "http://h/share/3f6c…" failed'],
    ['/api/documents/12', '/api/documents/12'],
    ['/api/share/abc', '/api/share/abc'],
    ['/api/units', '/api/units'],
  ])('%s → %s', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });
});

describe('logger', () => {
  it('masks keys in an error line: its message, the error’s message and its stack', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    logger.error(`PDF of /share/${UUID} not printed`, new Error(`page.goto: net::ERR_ABORTED at http://127.0.0.1/share/${UUID}`));
    expect(written).toHaveLength(1);
    const line = JSON.parse(String(written[0])) as { message: string; error: string; stack: string };
    expect(line.message).toBe('PDF of /share/3f6c… not printed');
    expect(line.error).toBe('page.goto: net::ERR_ABORTED at http://127.0.0.1/share/3f6c…');
    expect(line.stack).toContain('/share/3f6c…');
    expect(written[0]).not.toContain(UUID);
  });

  it('masks them in an access line’s path', () => {
    logger.configure({ level: 'info' });
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    logger.info({ method: 'GET', path: `/api/calendar/${TOKEN}.ics`, status: 200 });
    expect(JSON.parse(String(written[0]))).toMatchObject({ path: '/api/calendar/Zk3v….ics', status: 200 });
  });
});
