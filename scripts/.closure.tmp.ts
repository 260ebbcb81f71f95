import fs from 'node:fs';
import zlib from 'node:zlib';
import { staticClosure, type Manifest } from './bench/bundle-graph';
const dir = process.argv[2];
const m = JSON.parse(fs.readFileSync(`${dir}/.vite/manifest.json`, 'utf8')) as Manifest;
const gz = (f: string) => zlib.gzipSync(fs.readFileSync(`${dir}/${f}`), { level: 9 }).length;
for (const keys of process.argv.slice(3)) {
  const files = staticClosure(m, keys.split(','));
  let t = 0;
  const rows = [...files].map((f) => [f, gz(f)] as const).sort((a, b) => b[1] - a[1]);
  for (const [f, s] of rows) { t += s; console.log(String(s).padStart(8), f); }
  console.log('total', t, keys);
}
