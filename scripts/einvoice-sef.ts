// `npm run einvoice:sef`: compiles the EN 16931 schematron XSLTs into the SaxonJS export files (SEF) committed
// under src/server/einvoice/artefacts/sef. Run it after replacing the XSLTs with a new release of the artefacts.
// Why committed rather than built: each compile takes ~20 s and ~600 MB here, the SEFs weigh 5–7 MB but pack to
// ~150 KB each in git, and tests and `tsx` runs need them without a build step.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { artefactPath, artefactsDir, syntaxArtefacts } from '../src/server/einvoice/artefacts';

const root = path.resolve(artefactsDir, '../../../..');
const xslt3 = path.join(root, 'node_modules', '.bin', 'xslt3');
const xslt3Version = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'xslt3', 'package.json'), 'utf8')) as { version: string })
  .version;

const manifest: Record<string, { xslt: string; xsltSha256: string; sef: string; compiler: string }> = {};
for (const [syntax, artefacts] of Object.entries(syntaxArtefacts)) {
  const source = artefactPath(artefacts.xslt);
  const target = artefactPath(artefacts.sef);
  const temporary = `${target}.tmp`;
  const start = performance.now();
  // -relocate:on: the SEF does not depend on the folder it was compiled in, so it loads from any checkout.
  const run = spawnSync(xslt3, [`-xsl:${source}`, `-export:${temporary}`, '-nogo', '-relocate:on'], { stdio: 'inherit' });
  if (run.status !== 0) {
    fs.rmSync(temporary, { force: true });
    console.error(`La compilation de ${artefacts.xslt} a échoué (code ${run.status})`);
    process.exit(1);
  }
  fs.renameSync(temporary, target);
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`${artefacts.sef} : ${(fs.statSync(target).size / 1e6).toFixed(1)} Mo en ${seconds} s`);
  manifest[syntax] = {
    xslt: artefacts.xslt,
    xsltSha256: createHash('sha256').update(fs.readFileSync(source)).digest('hex'),
    sef: artefacts.sef,
    compiler: `xslt3 ${xslt3Version}`,
  };
}
fs.writeFileSync(artefactPath('sef/manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
