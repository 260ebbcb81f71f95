// Compiles the EN 16931 and French CIUS schematron XSLTs (committed, official) into the SaxonJS export files (SEF) under
// src/server/einvoice/artefacts/sef. The SEFs are build output (5–7 MB each, ~20 s and ~600 MB per compile), so they
// are not committed: `npm install` / `npm ci` runs this with --if-stale (postinstall), which compiles only what is
// missing or was compiled from another XSLT or compiler version (sef/manifest.json records both).
// `npm run einvoice:sef` recompiles everything. The EN 16931 XSLTs are compiled with their absolute paths hoisted into
// variables and their child steps mapped instead of sorted (einvoice-sef-hoist.ts: the same rules, in linear instead of
// quadratic time on the number of lines).
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artefactPath, artefactsDir, compiledRuleSets, type RuleSet } from '../src/server/einvoice/artefacts';
import { hoistAbsolutePaths, mapChildSteps } from './einvoice-sef-hoist';

const root = path.resolve(artefactsDir, '../../../..');
const xslt3 = path.join(root, 'node_modules', '.bin', 'xslt3');
const xslt3Version = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'xslt3', 'package.json'), 'utf8')) as { version: string })
  .version;
// Part of the compiler's name in the manifest: a SEF compiled without the rewrite (or an older one) is stale.
const REWRITE = 'hoisted-paths 1, mapped-steps 1';

type ManifestEntry = { xslt: string; xsltSha256: string; sef: string; compiler: string };
const manifestPath = artefactPath('sef/manifest.json');
fs.mkdirSync(path.dirname(manifestPath), { recursive: true });
const ifStale = process.argv.includes('--if-stale');
const previous: Record<string, ManifestEntry> = fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : {};
const manifest: Record<string, ManifestEntry> = {};
const stale: { syntax: string; artefacts: RuleSet; entry: ManifestEntry }[] = [];
for (const [syntax, artefacts] of Object.entries(compiledRuleSets)) {
  const entry = {
    xslt: artefacts.xslt,
    xsltSha256: createHash('sha256')
      .update(fs.readFileSync(artefactPath(artefacts.xslt)))
      .digest('hex'),
    sef: artefacts.sef,
    compiler: artefacts.hoist ? `xslt3 ${xslt3Version}, ${REWRITE}` : `xslt3 ${xslt3Version}`,
  };
  const before = previous[syntax];
  if (
    ifStale &&
    fs.existsSync(artefactPath(artefacts.sef)) &&
    before?.xsltSha256 === entry.xsltSha256 &&
    before.compiler === entry.compiler
  )
    manifest[syntax] = entry;
  else stale.push({ syntax, artefacts, entry });
}

/** The compiles running now: stopped when another one fails, so that none outlives a failed `npm ci`. */
const running = new Set<ChildProcess>();

/** One compile in its own process (SaxonJS on Node: one core each); rejects with the reason it failed. */
function compile(job: (typeof stale)[number]): Promise<void> {
  const { artefacts } = job;
  const source = artefactPath(artefacts.xslt);
  const target = artefactPath(artefacts.sef);
  console.log(`Compilation de ${artefacts.xslt} (règles ${artefacts.label})…`);
  const temporary = `${target}.tmp`;
  const start = performance.now();
  // Beside the official file, so that anything it refers to relatively resolves the same; removed once compiled.
  let compiled = source;
  if (artefacts.hoist) {
    const hoisted = hoistAbsolutePaths(fs.readFileSync(source, 'utf8'));
    const mapped = mapChildSteps(hoisted.xslt);
    compiled = `${source}.hoisted.xslt`;
    fs.writeFileSync(compiled, mapped.xslt);
    console.log(
      `${artefacts.xslt} : ${hoisted.hoisted} chemins absolus calculés une fois (variables globales), ${mapped.mapped} expressions sans tri des lignes`,
    );
  }
  return new Promise((resolve, reject) => {
    // -relocate:on: the SEF does not depend on the folder it was compiled in, so it loads from any checkout.
    const child = spawn(xslt3, [`-xsl:${compiled}`, `-export:${temporary}`, '-nogo', '-relocate:on'], { stdio: 'inherit' });
    running.add(child);
    let failure: Error | undefined;
    child.on('error', (error) => {
      failure = error;
    });
    // 'close' comes once the process has ended, also after a spawn error: the files it leaves are removed here alone.
    child.on('close', (code, signal) => {
      running.delete(child);
      if (compiled !== source) fs.rmSync(compiled, { force: true });
      if (failure || code !== 0) {
        fs.rmSync(temporary, { force: true });
        const reason = failure?.message ?? (signal ? `arrêtée par ${signal}` : `code ${code}`);
        return reject(new Error(`La compilation de ${artefacts.xslt} a échoué (${reason})`));
      }
      try {
        fs.renameSync(temporary, target);
        const seconds = ((performance.now() - start) / 1000).toFixed(1);
        console.log(`${artefacts.sef} : ${(fs.statSync(target).size / 1e6).toFixed(1)} Mo en ${seconds} s`);
        manifest[job.syntax] = job.entry;
        // Written after each compile, so an interrupted run keeps what it finished.
        fs.writeFileSync(manifestPath, `${JSON.stringify({ ...previous, ...manifest }, null, 2)}\n`);
        resolve();
      } catch (error) {
        reject(error);
      }
    });
  });
}

// One compile per core (each takes ~600 MB and one core for 5–27 s): on 2 cores the seven take about two thirds of the
// time of a queue (75 s against ~105 s), which a fresh clone's `npm ci` pays every time. The first failure stops the
// others and nothing more starts; the script fails once they have all ended.
const queue = [...stale].sort(
  (a, b) => fs.statSync(artefactPath(b.artefacts.xslt)).size - fs.statSync(artefactPath(a.artefacts.xslt)).size,
);
const lanes = Math.max(1, Math.min(os.availableParallelism(), 4));
const ended = await Promise.allSettled(
  Array.from({ length: lanes }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      try {
        await compile(job);
      } catch (error) {
        queue.length = 0;
        for (const child of running) child.kill();
        throw error;
      }
    }
  }),
);
const failures = ended.flatMap((result) => (result.status === 'rejected' ? [(result.reason as Error).message] : []));
if (failures.length > 0) {
  for (const message of failures) console.error(message);
  process.exit(1);
}
// In the rule sets' order, whichever compile finished first.
const ordered = Object.fromEntries(
  Object.keys(compiledRuleSets).flatMap((syntax) => (manifest[syntax] ? [[syntax, manifest[syntax]]] : [])),
);
fs.writeFileSync(manifestPath, `${JSON.stringify(ordered, null, 2)}\n`);
