// `npm run deps:check`: the dependency audit that works on these machines (the registry's audit endpoint answers
// 405 here). Prints the production dependency tree, flattened to name@version, and for each direct dependency
// whether a newer release exists within its major (to take) or only in a later major (to plan). Exit code 1 when
// a same-major update is pending, so CI or an operator notices.
import { execFileSync } from 'node:child_process';

const npm = (args) => {
  try {
    return execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    return error.stdout ?? ''; // npm outdated exits 1 when something is outdated: its JSON is still on stdout
  }
};

const tree = JSON.parse(npm(['ls', '--omit=dev', '--all', '--json']) || '{}');
const packages = new Set();
(function walk(deps = {}) {
  for (const [name, info] of Object.entries(deps)) {
    if (info.version) packages.add(`${name}@${info.version}`);
    walk(info.dependencies);
  }
})(tree.dependencies);
console.log(`Dépendances de production : ${packages.size} paquets`);
for (const p of [...packages].sort()) console.log(`  ${p}`);

const outdated = JSON.parse(npm(['outdated', '--omit=dev', '--json']) || '{}');
const parts = (v) =>
  String(v)
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
const major = (v) => parts(v)[0];
const newer = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};
/** Held back on purpose, with the reason (STACK.md). */
const HELD = {
  '@trpc/client': 'les quatre paquets @trpc/* vont ensemble et @trpc/react-query s’arrête à 11.19.0 (STACK.md)',
  '@trpc/server': 'les quatre paquets @trpc/* vont ensemble et @trpc/react-query s’arrête à 11.19.0 (STACK.md)',
};
let pending = 0;
for (const [name, info] of Object.entries(outdated)) {
  if (!info.current || !info.latest || !newer(info.latest, info.current)) continue;
  if (HELD[name]) {
    console.log(`Gardé en ${info.current} (${info.latest} existe) : ${HELD[name]}`);
    continue;
  }
  if (major(info.latest) === major(info.current)) {
    pending += 1;
    console.log(`À mettre à jour (même version majeure) : ${name} ${info.current} → ${info.latest}`);
  } else console.log(`Nouvelle version majeure disponible, à planifier : ${name} ${info.current} → ${info.latest}`);
}
if (pending === 0) console.log('Aucune mise à jour en attente dans les versions majeures choisies.');
process.exitCode = pending > 0 ? 1 : 0;
