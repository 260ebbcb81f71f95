// `npm run bench -- bundle`: the JavaScript each page of the built client downloads, gzip-compressed as the server
// sends it (src/server/http/static.ts, level 9). Builds the client first when it is missing or stale. The budgets:
// the login page ≤ 110 KB in all, no page over 250 KB when opened first (entry, data layer, shell and page); a broken
// budget makes the run fail (exit code 1).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ensureClientBuild } from '../build-if-stale.mjs';
import { bundleReport, type Manifest } from './bundle-graph';

const CLIENT = path.resolve(import.meta.dirname, '../../dist/client');
const LOGIN_PAGE = 'src/client/routes/auth/login-page.tsx';
const LOGIN_BUDGET = 110_000;
const PAGE_BUDGET = 250_000;

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export async function benchBundle() {
  await ensureClientBuild();
  const manifestPath = path.join(CLIENT, '.vite/manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`${manifestPath} manque : vite.config.ts doit garder build.manifest`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const gzipSize = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = zlib.gzipSync(fs.readFileSync(path.join(CLIENT, file)), { level: 9 }).length;
      sizes.set(file, size);
    }
    return size;
  };
  const report = bundleReport(manifest, gzipSize);

  console.log('\nJavaScript par page (gzip niveau 9, comme le serveur l’envoie)');
  console.log('  page : son propre fichier ; route : ce qu’elle ajoute à l’entrée (ses fichiers et la coque de l’application) ;');
  console.log('  1er chargement : tout ce qu’il faut quand on l’ouvre en premier (entrée + coque + page)');
  console.log(`${'page'.padEnd(58)} ${'page'.padStart(9)} ${'route'.padStart(9)} ${'1er chargement'.padStart(15)} fichiers`);
  for (const row of report.rows) {
    const name = row.page.replace('src/client/routes/', '');
    console.log(
      `${name.padEnd(58)} ${kb(row.own).padStart(9)} ${kb(row.route).padStart(9)} ${kb(row.firstLoad).padStart(15)} ${String(row.files).padStart(8)}`,
    );
  }
  const login = report.rows.find((row) => row.page === LOGIN_PAGE);
  const heaviest = [...report.rows].sort((a, b) => b.firstLoad - a.firstLoad)[0];
  const heaviestRoute = [...report.rows].sort((a, b) => b.route - a.route)[0];
  console.log(`\nPage de connexion : ${login ? kb(login.firstLoad) : '?'} (budget ${kb(LOGIN_BUDGET)})`);
  if (heaviestRoute) console.log(`Route la plus lourde : ${heaviestRoute.page} ${kb(heaviestRoute.route)}`);
  if (heaviest) console.log(`Plus lourd premier chargement : ${heaviest.page} ${kb(heaviest.firstLoad)} (budget ${kb(PAGE_BUDGET)})`);
  console.log(`Plus gros fichier : ${report.largestChunk.file} ${kb(report.largestChunk.gzip)}`);
  console.log(`Tout le JavaScript : ${kb(report.totalJs)}`);

  const broken = [
    ...(login && login.firstLoad <= LOGIN_BUDGET ? [] : ['la page de connexion dépasse son budget']),
    ...report.rows.filter((row) => row.firstLoad > PAGE_BUDGET).map((row) => `${row.page} dépasse ${kb(PAGE_BUDGET)}`),
  ];
  for (const message of broken) console.error(`Budget dépassé : ${message}`);
  if (broken.length > 0) process.exitCode = 1;
}
