import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

export const APP_VERSION = '1.0.0';

export interface BuildInfo {
  version: string;
  /** Changes whenever a new client build is served; the SPA polls it to raise the update notice. */
  buildId(): string;
}

/** The build id is the hash of the served index.html (it names every hashed asset), re-read only when it changes on disk. */
export function createBuildInfo(clientDist: string): BuildInfo {
  const indexPath = path.join(clientDist, 'index.html');
  let cached: { mtimeMs: number; size: number; id: string } | undefined;
  return {
    version: APP_VERSION,
    buildId() {
      try {
        const stat = fs.statSync(indexPath);
        if (!cached || cached.mtimeMs !== stat.mtimeMs || cached.size !== stat.size) {
          const id = createHash('sha256').update(fs.readFileSync(indexPath)).digest('hex').slice(0, 16);
          cached = { mtimeMs: stat.mtimeMs, size: stat.size, id };
        }
        return cached.id;
      } catch {
        return 'dev';
      }
    },
  };
}
