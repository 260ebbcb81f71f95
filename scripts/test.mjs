// `npm test`: typecheck, lint, unit, integration, then end-to-end in Chromium; exits non-zero on any failure.
// The machines have 2 cores. The unit and integration tests on SQLite, then the typecheck, the lint and the client build
// the browser tests need, go in one lane; the PostgreSQL run of the integration suite then the second unit run in the
// other (each Vitest run has one worker: the two lanes fill both cores). The browser tests come after both lanes: alone,
// two workers keep both cores busy (976 s on 2 cores, load average 9), and beside a lane each page waited on the CPU
// (the suite 1,280–1,430 s, and a page's 10 s bound was once missed). Each lane's output is printed whole when it ends,
// so a lane reads in one piece; the browser tests' output is streamed. The last line names every step that failed.
import { spawn } from 'node:child_process';
import path from 'node:path';

// TEST_DATABASE_URL (set by .ci/run when it could start a PostgreSQL): the integration suite runs a second time on it.
// It is taken out of the environment so that every other step, the first integration run included, stays on SQLite.
const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
delete process.env.TEST_DATABASE_URL;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs one command; resolves to its exit code and its output (captured; with `live`, also streamed as it comes). */
function run(command, args, { live = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0', ...env } });
    let output = '';
    const take = (chunk) => {
      if (live) process.stdout.write(chunk);
      output += chunk;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => resolve({ code: 1, output: `${output}\n${error.message}\n` }));
    // 'close', not 'exit': the output's last lines (Vitest's summary of what failed) may still be on their way at exit.
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * What a failed step's output says of its failure, printed again at the very end: a lane's output comes whole when the
 * lane ends, so a failure in one lane is followed by the other lane's long output, and a log read from its end (a CI
 * page shows its tail) must still name the failing test. Vitest's own section from « Failed Tests » or « Failed Suites »
 * on, otherwise the output's last lines; at most 200 lines either way.
 */
function failureSummary(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /Failed (Tests|Suites) \d+/.test(line));
  const from = start >= 0 ? lines.slice(start) : lines.slice(-60);
  return from.slice(0, 200).join('\n');
}

/** Steps one after the other, stopping at the first failure; each step's output printed under its title. */
async function lane(steps) {
  const log = [];
  for (const [title, command, args, env] of steps) {
    const started = performance.now();
    const { code, output } = await run(command, args, { env });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log.push(`\n== ${title} (${seconds} s${code === 0 ? '' : `, code ${code}`})\n${output}`);
    if (code !== 0) return { ok: false, failed: title, log: log.join(''), summary: failureSummary(output) };
  }
  return { ok: true, log: log.join('') };
}

if (!postgresUrl) console.log('(TEST_DATABASE_URL non défini : la suite d’intégration ne tourne que sur SQLite)');
const started = performance.now();
// Panda's generated styled-system comes first: the typecheck needs it, and so do the unit tests that import client modules.
const codegen = await lane([['panda codegen', bin('panda'), ['codegen', '--silent']]]);
if (!codegen.ok) {
  process.stdout.write(codegen.log);
  console.error(`\nnpm test: échec de ${codegen.failed} (voir ci-dessus)`);
  process.exit(1);
}
const checks = [
  ['typecheck', bin('tsc'), ['--noEmit']],
  ['lint and format (biome check)', bin('biome'), ['check', '--max-diagnostics=50', '.']],
  ['client build for the browser tests', process.execPath, [path.join(root, 'scripts/build-if-stale.mjs'), '--client']],
];
// The unit and integration suites run on the supported LTS versions, fetched by scripts/other-node.mjs whatever Node
// the machine has: Node 22 for SQLite, Node 24 for PostgreSQL and a second unit run. TEST_NODE_VERSIONS=current keeps
// them on the machine's Node (offline, or to debug one failure quickly).
const onCurrentNode = process.env.TEST_NODE_VERSIONS === 'current';
const onNode = (major, title, args, env) =>
  onCurrentNode
    ? [title, bin('vitest'), args, env]
    : [`${title}, Node ${major}`, process.execPath, [path.join(root, 'scripts/other-node.mjs'), major, 'vitest', ...args], env];
const sqlite = onNode('22', 'unit and integration tests (SQLite)', ['run', '--project', 'unit', '--project', 'integration']);
const unitAgain = onCurrentNode ? [] : [onNode('24', 'unit tests', ['run', '--project', 'unit'])];
const printed = (result) => {
  process.stdout.write(result.log);
  return result;
};
const postgresStep = onNode('24', 'integration tests on PostgreSQL', ['run', '--project', 'integration'], {
  TEST_DATABASE_URL: postgresUrl,
});

/** The browser tests, their output streamed as they run (they need the client build that the checks make). */
async function browserTests() {
  const title = 'end-to-end tests (Chromium)';
  console.log(`\n== ${title}`);
  const { code, output } = await run(bin('vitest'), ['run', '--project', 'e2e'], { live: true });
  return code === 0 ? { ok: true } : { ok: false, failed: title, summary: failureSummary(output) };
}

// The lane that builds the client, and the other; the browser tests once both have ended, if the first passed (a failure
// of the other is reported with theirs).
const [clientLane, otherLane] = postgresUrl
  ? [
      [sqlite, ...checks],
      [postgresStep, ...unitAgain],
    ]
  : [[...checks, ...unitAgain], [sqlite]];
const lanes = await Promise.all([lane(clientLane).then(printed), lane(otherLane).then(printed)]);
const results = lanes[0].ok ? [...lanes, await browserTests()] : lanes;
console.log(`\n== npm test: ${((performance.now() - started) / 1000).toFixed(0)} s`);
const failed = results.filter((r) => !r.ok).map((r) => r.failed);
for (const result of results.filter((r) => !r.ok && r.summary))
  console.log(`\n== ${result.failed} : ce qui a échoué (répété depuis plus haut)\n${result.summary}`);
if (failed.length > 0) {
  console.error(`\nnpm test: échec de ${failed.join(', ')} (voir ci-dessus)`);
  process.exit(1);
}
