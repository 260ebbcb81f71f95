import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../../scripts/bench/bundle-graph';

/**
 * The URL path of a source module's own built chunk, from the manifest of the client the test server serves (the e2e
 * global setup builds it): for tests that hold or watch one download.
 */
export function chunkOf(source: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.resolve('dist/client/.vite/manifest.json'), 'utf8')) as Manifest;
  // A module also imported statically by another lazy one is a shared chunk, listed as `_<name>-<hash>.js`.
  const name = path.basename(source).replace(/\.tsx?$/, '');
  const shared = Object.keys(manifest).find((key) => new RegExp(`^_${name}-[\\w-]+\\.js$`).test(key));
  const file = (manifest[source] ?? (shared ? manifest[shared] : undefined))?.file;
  if (!file) throw new Error(`${source} n’a pas de chunk à lui dans le manifeste`);
  return `/${file}`;
}
