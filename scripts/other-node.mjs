// Runs a command of the project on another Node.js version than the machine's, which stays untouched: the supported
// LTS lines are tested whatever Node the machine has.
//
//   node scripts/other-node.mjs 24 vitest run --project unit
//
// - The Node build comes from the npm registry (the `node-linux-<arch>` package is nodejs.org's tarball: binary and
//   headers), at the exact version pinned below, checked by npm against the registry's integrity hash.
// - better-sqlite3 is the one native module: it is compiled for that Node's ABI with node-gyp and that Node's own headers
//   (no download from nodejs.org or GitHub, which these machines cannot reach).
// - The command runs in a copy of the working tree whose node_modules links every installed package but better-sqlite3,
//   so that the machine's own build of it is never replaced under a run on the machine's Node.
// Both downloads and the compiled module are kept in FACTURIER_CACHE_DIR (default ~/.cache/facturier); the copy of the
// tree is removed when the command ends.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The LTS versions the suites run on; supported as the README says. */
export const PINNED = { 22: '22.23.5', 24: '24.22.3' };

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cacheRoot = process.env.FACTURIER_CACHE_DIR || path.join(os.homedir(), '.cache', 'facturier');
// What the copy of the tree leaves out: the installed packages (linked instead), history, and what runs write.
const NOT_COPIED = new Set(['node_modules', '.git', 'data', '.bench-cache', 'test-results']);
const NOT_COPIED_PATHS = new Set([path.join('tests', 'artifacts')]);

function log(message) {
  process.stderr.write(`[node ${message}]\n`);
}

/** Moves a finished folder into the cache; when another run got there first, its copy is kept and this one dropped. */
function settle(folder, destination) {
  try {
    fs.renameSync(folder, destination);
  } catch (error) {
    if (!fs.existsSync(destination)) throw error;
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The Node binary and headers of `version`, unpacked once into the cache; the folder holding bin/ and include/. */
function nodeHome(version) {
  const home = path.join(cacheRoot, 'node', `${version}-${process.platform}-${process.arch}`);
  if (fs.existsSync(path.join(home, 'bin', 'node'))) return home;
  if (process.platform !== 'linux') throw new Error(`Node ${version} : seul Linux est pris en charge pour ce téléchargement`);
  fs.mkdirSync(path.dirname(home), { recursive: true });
  const work = fs.mkdtempSync(`${home}.tmp-`); // beside its destination: the rename stays on one file system
  try {
    log(`${version}: téléchargement depuis le registre npm`);
    const tarball = execFileSync('npm', ['pack', `node-linux-${process.arch}@${version}`, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['xzf', path.join(work, tarball.split('\n').pop()), '-C', work]);
    settle(path.join(work, 'package'), home);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return home;
}

/** better-sqlite3 as installed, compiled for `version`: a folder to use as node_modules/better-sqlite3. */
function betterSqlite3For(version, home) {
  const installed = path.join(root, 'node_modules', 'better-sqlite3');
  const { version: moduleVersion } = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  const built = path.join(cacheRoot, 'better-sqlite3', `${moduleVersion}-node-${version}-${process.platform}-${process.arch}`);
  if (fs.existsSync(path.join(built, 'build', 'Release', 'better_sqlite3.node'))) return built;
  log(`${version}: compilation de better-sqlite3 ${moduleVersion}`);
  const work = `${built}.tmp-${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(installed, work, { recursive: true, filter: (source) => !source.startsWith(path.join(installed, 'build')) });
  const nodeGyp = path.join(
    path.dirname(fs.realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim())),
    '..',
    'node_modules',
    'node-gyp',
    'bin',
    'node-gyp.js',
  );
  const jobs = String(Math.max(1, os.availableParallelism()));
  const node = path.join(home, 'bin', 'node');
  // Under `npm test`, npm hands its configuration down as npm_config_* variables, and node-gyp lets them win over its
  // own flags: Debian's npm sets nodedir=/usr, which compiled against the machine's Node headers, not this version's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
  try {
    // The compiler's warnings are the module's own business: printed only when the build fails.
    execFileSync(node, [nodeGyp, 'rebuild', '--release', '--loglevel=error', `--nodedir=${home}`, '-j', jobs], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...env, npm_config_nodedir: home, PATH: `${path.join(home, 'bin')}:${process.env.PATH}` },
    });
  } catch (error) {
    process.stderr.write(error.stderr ?? '');
    throw error;
  }
  // A module built for another ABI only fails when a test first opens a database: check it loads before caching it.
  const addon = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  execFileSync(node, ['-e', `require(${JSON.stringify(addon)})`], { stdio: ['ignore', 'ignore', 'inherit'] });
  settle(work, built);
  return built;
}

/** A copy of the working tree for one run, its node_modules made of links but for better-sqlite3. */
function treeFor(version, betterSqlite3) {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), `facturier-node${version.split('.')[0]}-`));
  for (const entry of fs.readdirSync(root)) {
    if (NOT_COPIED.has(entry)) continue;
    fs.cpSync(path.join(root, entry), path.join(tree, entry), {
      recursive: true,
      preserveTimestamps: true, // dist/ stays newer than its sources: nothing is rebuilt that does not need it
      filter: (source) => !NOT_COPIED_PATHS.has(path.relative(root, source)) && !/\.db(-wal|-shm)?$/.test(source),
    });
  }
  const modules = path.join(tree, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (entry === 'better-sqlite3' || entry === '.bin' || entry.startsWith('.vite')) continue;
    fs.symlinkSync(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  // The commands keep their relative links, which now lead through this tree's node_modules; their `env node` finds
  // the other Node first on the PATH.
  const bin = path.join(root, 'node_modules', '.bin');
  fs.mkdirSync(path.join(modules, '.bin'));
  for (const entry of fs.readdirSync(bin)) {
    const target = path.join(bin, entry);
    fs.symlinkSync(fs.lstatSync(target).isSymbolicLink() ? fs.readlinkSync(target) : target, path.join(modules, '.bin', entry));
  }
  // A copy, not a link: Node resolves a module's own requires (its `bindings`) from its real path.
  const own = path.join(modules, 'better-sqlite3');
  for (const part of ['package.json', 'lib', path.join('build', 'Release', 'better_sqlite3.node')]) {
    fs.cpSync(path.join(betterSqlite3, part), path.join(own, part), { recursive: true });
  }
  return tree;
}

/** The file a node_modules/.bin command runs. */
function binScript(name) {
  return fs.realpathSync(path.join(root, 'node_modules', '.bin', name));
}

/** Prepares Node `major` (a key of PINNED) and runs `command args…` on it; resolves to the exit code. */
export async function runOnNode(major, command, args, { env = {}, stdio = 'inherit' } = {}) {
  const version = PINNED[major];
  if (!version) throw new Error(`Node ${major} : version non prise en charge (${Object.keys(PINNED).join(', ')})`);
  const home = nodeHome(version);
  const tree = treeFor(version, betterSqlite3For(version, home));
  try {
    const node = path.join(home, 'bin', 'node');
    log(`${version}: ${command} ${args.join(' ')}`);
    const child = spawn(node, [binScript(command), ...args], {
      cwd: tree,
      stdio,
      env: { ...process.env, ...env, PATH: `${path.join(home, 'bin')}:${process.env.PATH}` },
    });
    return await new Promise((resolve) => {
      child.on('error', () => resolve(1));
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [major, command, ...args] = process.argv.slice(2);
  if (!major || !command) {
    console.error('usage : node scripts/other-node.mjs <22|24> <commande de node_modules/.bin> [arguments…]');
    process.exit(2);
  }
  process.exit(await runOnNode(major, command, args));
}
