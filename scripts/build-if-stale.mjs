// Builds the client and the server bundle when they are missing or older than their sources, so that
// `npm start` on a fresh clone, after a `git pull`, or in the e2e tests always serves the current code.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SHARED_INPUTS = ['src/shared', 'package-lock.json', 'vite.config.ts', 'tsconfig.json'];
const CLIENT_INPUTS = ['src/client', 'index.html', 'panda.config.ts', 'postcss.config.cjs', 'public', ...SHARED_INPUTS];
const SERVER_INPUTS = ['src/server', 'build', ...SHARED_INPUTS];

function newestMtime(relative) {
  const full = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(relative, entry)));
  return newest;
}

function isStale(output, inputs) {
  const out = path.join(root, output);
  if (!fs.existsSync(out)) return true;
  const built = fs.statSync(out).mtimeMs;
  return inputs.some((input) => newestMtime(input) > built);
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    // Always a production build: run from Vitest (e2e global setup, NODE_ENV=test), Vite would otherwise bundle React's
    // development build, twice the size and slower, and `npm run bench -- bundle` would then measure that.
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} a échoué (code ${code})`))));
  });
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

export async function ensureClientBuild() {
  if (!isStale('dist/client/index.html', CLIENT_INPUTS)) return false;
  console.log('Construction de l’interface (client)…');
  await run(bin('panda'), ['codegen', '--silent']);
  await run(bin('vite'), ['build', '--logLevel', 'warn']);
  return true;
}

export async function ensureServerBuild() {
  // main.js and the worker threads' worker.js (vite.config.ts names both inputs of the server build).
  if (!isStale('dist/server/main.js', SERVER_INPUTS) && fs.existsSync(path.join(root, 'dist/server/worker.js'))) return false;
  console.log('Construction du serveur…');
  await run(bin('vite'), ['build', '--ssr', '--outDir', 'dist/server', '--emptyOutDir', '--logLevel', 'warn']);
  return true;
}

// Run directly: both builds, or only one with `--client` / `--server` (npm test builds the client beside its other checks).
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const only = process.argv[2];
  if (only !== '--server') await ensureClientBuild();
  if (only !== '--client') await ensureServerBuild();
}
