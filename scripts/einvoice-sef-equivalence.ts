// `npm run einvoice:sef:check`: proves that the rewritten EN 16931 SEFs (einvoice-sef-hoist.ts) decide exactly as the
// official XSLTs. Each official XSLT is compiled as it is into a temporary SEF; both then validate the official
// examples and a few hundred mutations of them (an element removed, doubled, or its value changed to another amount
// or code), and every failed assert (rule, flag, location, message) must be the same. Run it after changing the
// rewrite or the artefacts; it takes a minute or two, so it is not part of `npm test`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { artefactPath, type EinvoiceSyntax, syntaxArtefacts } from '../src/server/einvoice/artefacts';
import { failedAsserts } from '../src/server/einvoice/schematron';
import { largeSupplierCii } from '../tests/helpers/large-einvoice';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const examples = path.resolve(root, '../shared/einvoicing/examples');
const mutations = Number(process.argv[2] ?? 300);

/** A deterministic pseudo-random sequence: the same mutations on every run. */
function randomFrom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

const VALUES = ['S', 'E', 'AE', 'K', 'G', 'O', 'Z', 'L', 'M', '380', '381', 'VAT', 'EUR', 'USD'];

function mutate(xml: string, leaf: RegExp, random: (below: number) => number): string {
  const leaves = [...xml.matchAll(leaf)];
  let out = xml;
  for (let k = 0; k < 1 + random(3); k++) {
    const found = leaves[random(leaves.length)];
    if (!found) continue;
    const [element, , text = ''] = found;
    const numeric = /^-?\d+(\.\d+)?$/.test(text);
    const replacement = [
      '',
      element.replace(`>${text}<`, `>${numeric ? `${Number(text) + 1 + random(50)}.123` : 'ZZ'}<`),
      element.replace(`>${text}<`, `>${VALUES[random(VALUES.length)]}<`),
      element + element,
    ][random(4)];
    out = out.replace(element, replacement ?? element);
  }
  return out;
}

async function decisions(xml: string, sef: string, syntax: EinvoiceSyntax): Promise<string> {
  try {
    return JSON.stringify(await failedAsserts(xml, { ...syntaxArtefacts[syntax], sef }));
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

let failed = false;
for (const syntax of ['cii', 'ubl'] as const) {
  const artefacts = syntaxArtefacts[syntax];
  const folder = path.join(examples, syntax);
  const bases = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => fs.readFileSync(path.join(folder, f), 'utf8'));
  if (syntax === 'cii') bases.push(largeSupplierCii(20_000).xml.toString());
  // The official XSLT compiled as it is, beside the shipped SEFs so that it resolves the same way.
  const officialSef = `sef/official-${syntax}-${process.pid}.sef.json`;
  const compiled = spawnSync(
    path.join(root, 'node_modules', '.bin', 'xslt3'),
    [`-xsl:${artefactPath(artefacts.xslt)}`, `-export:${artefactPath(officialSef)}`, '-nogo', '-relocate:on'],
    { stdio: 'inherit' },
  );
  if (compiled.status !== 0) throw new Error(`xslt3 a échoué sur ${artefacts.xslt}`);
  try {
    const random = randomFrom(42);
    const leaf = syntax === 'cii' ? /<(ram:\w+)[^>]*>([^<]*)<\/\1>/g : /<(cbc:\w+)[^>]*>([^<]*)<\/\1>/g;
    let same = 0;
    let refused = 0;
    const differences: number[] = [];
    for (let i = 0; i < bases.length + mutations; i++) {
      const xml = bases[i] ?? mutate(bases[random(bases.length)] ?? '', leaf, random);
      const official = await decisions(xml, officialSef, syntax);
      const rewritten = await decisions(xml, artefacts.sef, syntax);
      if (official !== '[]') refused += 1;
      if (official === rewritten) same += 1;
      else differences.push(i);
    }
    console.log(
      `${artefacts.label} : ${same} fichiers sur ${bases.length + mutations} jugés de même (dont ${refused} avec des règles en échec)${differences.length ? ` ; différents : ${differences.join(', ')}` : ''}`,
    );
    if (differences.length > 0) failed = true;
  } finally {
    fs.rmSync(artefactPath(officialSef), { force: true });
  }
}
process.exit(failed ? 1 : 0);
