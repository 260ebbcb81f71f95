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

export async function benchEinvoice(): Promise<void> {
  console.log('\n## E-invoice validation (EN 16931), in-process');
  for (const syntax of ['cii', 'ubl'] as const) {
    const sef = artefactPath(syntaxArtefacts[syntax].sef);
    const [, parseMs] = await timed(async () => JSON.parse(fs.readFileSync(sef, 'utf8')));
    console.log(`${syntax.toUpperCase()} SEF: ${(fs.statSync(sef).size / 1e6).toFixed(1)} MB, read + JSON.parse ${parseMs.toFixed(0)} ms`);
  }

  console.log('\nCold: the first validation of the process for each syntax (CII first: it also loads libxml2 and SaxonJS)');
  console.log('| syntax | sample | bytes | cold ms | fatal asserts |');
  console.log('|---|---|---:|---:|---:|');
  for (const syntax of ['cii', 'ubl'] as const) {
    const { file, xml } = defined(samples(syntax)[0]);
    const [result, ms] = await timed(() => validateEinvoice(xml, syntax));
    const fatal = result.asserts.filter((a) => a.flag === 'fatal').length;
    console.log(`| ${syntax.toUpperCase()} | ${file} | ${xml.length} | ${ms.toFixed(0)} | ${fatal} |`);
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
  const memory = process.memoryUsage();
  console.log(
    `\nProcess memory after both syntaxes loaded: RSS ${(memory.rss / 1e6).toFixed(0)} MB, heap ${(memory.heapUsed / 1e6).toFixed(0)} MB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEinvoice();
