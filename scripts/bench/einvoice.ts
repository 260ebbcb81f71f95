// E-invoice validation: the cost of the first validation of a process (libxml2, the CII XSD, SaxonJS and a
// 5–7 MB SEF loaded), then of each later one, for CII (XSD + schematron) and UBL (schematron), on the official
// EN 16931 samples. In-process, no server. Prints figures only.
import fs from 'node:fs';
import path from 'node:path';
import { artefactPath, type EinvoiceSyntax, syntaxArtefacts } from '../../src/server/einvoice/artefacts';
import { validateEinvoice } from '../../src/server/einvoice/validate';
import { parseInvoice, schemaProblems } from '../../src/server/einvoice/xml-checks';
import { defined } from '../../src/shared/defined';

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/einvoice');
const WARM_RUNS = 20;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => defined(sorted(values)[Math.floor(values.length / 2)]);
const p95 = (values: number[]) => defined(sorted(values)[Math.floor(values.length * 0.95)]);

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}

function samples(syntax: EinvoiceSyntax): { file: string; xml: string }[] {
  const folder = path.join(FIXTURES, syntax);
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.xml'))
    .map((file) => ({ file, xml: fs.readFileSync(path.join(folder, file), 'utf8') }));
}

const rssMb = () => (process.memoryUsage().rss / 1e6).toFixed(0);

export async function benchEinvoice(): Promise<void> {
  console.log('\n## E-invoice validation (EN 16931), in-process');
  const rssBefore = rssMb();
  const cii = defined(samples('cii')[0]);
  const ubl = defined(samples('ubl')[0]);

  // Each step is the first of its kind in this process, so together they are the cold cost of the first validation.
  console.log('\nCold: the first validation of the process, step by step (each step the first of its kind)');
  console.log('| step | ms | RSS after, MB |');
  console.log('|---|---:|---:|');
  console.log(`| (process before) | — | ${rssBefore} |`);
  const [, xsdMs] = await timed(async () => {
    const parsed = await parseInvoice(cii.xml);
    if ('doc' in parsed) {
      await schemaProblems(parsed.doc, defined(syntaxArtefacts.cii.xsd));
      parsed.doc.dispose();
    }
  });
  console.log(`| load libxml2-wasm + compile the CII XSD + validate ${cii.file} | ${xsdMs.toFixed(0)} | ${rssMb()} |`);
  const [, saxonMs] = await timed(() => import('saxon-js'));
  console.log(`| load SaxonJS | ${saxonMs.toFixed(0)} | ${rssMb()} |`);
  for (const [syntax, { file, xml }] of [
    ['cii', cii],
    ['ubl', ubl],
  ] as const) {
    const sef = artefactPath(syntaxArtefacts[syntax].sef);
    const [result, ms] = await timed(() => validateEinvoice(xml, syntax));
    const fatal = result.asserts.filter((a) => a.flag === 'fatal').length;
    const size = (fs.statSync(sef).size / 1e6).toFixed(1);
    console.log(
      `| first ${syntax.toUpperCase()} validation of ${file} (${xml.length} bytes, ${fatal} fatal): read + parse the ${size} MB SEF, first transform | ${ms.toFixed(0)} | ${rssMb()} |`,
    );
  }

  console.log(`\nWarm: one validation, median and p95 of ${WARM_RUNS} runs after 3 warm-up runs`);
  console.log('| syntax | sample | bytes | lines | median ms | p95 ms | of which XSD median ms |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const syntax of ['cii', 'ubl'] as const) {
    const xsd = syntaxArtefacts[syntax].xsd;
    for (const { file, xml } of samples(syntax)) {
      for (let i = 0; i < 3; i++) await validateEinvoice(xml, syntax);
      const times: number[] = [];
      const xsdTimes: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        const [result, ms] = await timed(() => validateEinvoice(xml, syntax));
        if (!result.ok) throw new Error(`${file} refusé : le banc ne mesure que des fichiers valides`);
        times.push(ms);
        if (xsd) {
          const [, xsdMs] = await timed(async () => {
            const parsed = await parseInvoice(xml);
            if ('doc' in parsed) {
              await schemaProblems(parsed.doc, xsd);
              parsed.doc.dispose();
            }
          });
          xsdTimes.push(xsdMs);
        }
      }
      const lines = (xml.match(/<ram:IncludedSupplyChainTradeLineItem>|<cac:(Invoice|CreditNote)Line>/g) ?? []).length;
      const xsdCell = xsdTimes.length > 0 ? median(xsdTimes).toFixed(2) : '—';
      console.log(
        `| ${syntax.toUpperCase()} | ${file} | ${xml.length} | ${lines} | ${median(times).toFixed(1)} | ${p95(times).toFixed(1)} | ${xsdCell} |`,
      );
    }
  }
  const heap = (process.memoryUsage().heapUsed / 1e6).toFixed(0);
  console.log(`\nProcess memory after the warm runs: RSS ${rssMb()} MB (${rssBefore} MB before the first validation), JS heap ${heap} MB`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEinvoice();
