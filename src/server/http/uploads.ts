import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOGO_FILE, LOGO_URL_PREFIX, logoDir } from '../services/organization';

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/**
 * Logos are public (documents sent to customers show them) under a random name that reveals nothing; only names
 * the server generated are ever read, so no path can reach outside the logos folder.
 */
export function serveLogo(req: IncomingMessage, res: ServerResponse, pathname: string, dataDir: string): void {
  const name = pathname.slice(LOGO_URL_PREFIX.length);
  const file = LOGO_FILE.test(name) ? path.join(logoDir(dataDir), name) : null;
  if (!file || !fs.existsSync(file) || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('Fichier introuvable');
    return;
  }
  const body = fs.readFileSync(file);
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(name).slice(1)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
