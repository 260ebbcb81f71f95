import fs from 'node:fs';
import zlib from 'node:zlib';
import { staticClosure, type Manifest } from './bench/bundle-graph';
const dir = 'dist/client';
const m = JSON.parse(fs.readFileSync(`${dir}/.vite/manifest.json`, 'utf8')) as Manifest;
const gz = (f: string) => zlib.gzipSync(fs.readFileSync(`${dir}/${f}`), { level: 9 }).length;
const base = staticClosure(m, ['index.html', 'src/client/layouts/main-layout.tsx', 'src/client/data-layer.tsx', 'src/client/lib/zod-setup.ts']);
console.log('base', [...base].reduce((t, f) => t + gz(f), 0));
for (const page of process.argv.slice(2)) {
  const files = [...staticClosure(m, [page])].filter((f) => !base.has(f)).map((f) => [f, gz(f)] as const).sort((a, b) => b[1] - a[1]);
  console.log('==', page, files.reduce((t, [, s]) => t + s, 0));
  console.log(files.map(([f, s]) => `${s} ${f.replace('assets/', '')}`).join(', '));
}
