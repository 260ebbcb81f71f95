import { type EinvoiceSyntax, facturxArtefacts, frenchRules, type RuleSet } from './artefacts';
import { type FailedAssert, failedAsserts } from './schematron';
import { type EinvoiceValidation, validateEinvoice } from './validate';
import { parseInvoice, schemaProblems, type XmlProblem } from './xml-checks';

const fatalFirst = (asserts: FailedAssert[]) => [
  ...asserts.filter((a) => a.flag === 'fatal'),
  ...asserts.filter((a) => a.flag === 'warning'),
];

async function assertsOf(xml: string, rules: RuleSet): Promise<FailedAssert[] | XmlProblem> {
  try {
    return await failedAsserts(xml, rules);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { message: `Les règles ${rules.label} n’ont pas pu être évaluées : ${reason}`, line: 0, column: 0 };
  }
}

/** The Factur-X 1.09 EN 16931 schema, on the XML a Factur-X PDF embeds. */
async function facturxSchemaProblems(xml: string): Promise<XmlProblem[]> {
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) return parsed.problems;
  try {
    return await schemaProblems(parsed.doc, facturxArtefacts.xsd);
  } finally {
    parsed.doc.dispose();
  }
}

/**
 * EN 16931, then the French CIUS (BR-FR-Flux2) on what passed it: what a Plateforme Agréée checks before it accepts
 * an invoice; with `facturx`, the Factur-X 1.09 schema and schematron too (the CII a Factur-X PDF embeds). `ok` means
 * no fatal assert in any of them; warnings are kept for the caller to count.
 */
export async function validateFrenchEinvoice(
  xml: string,
  syntax: EinvoiceSyntax,
  options: { facturx?: boolean } = {},
): Promise<EinvoiceValidation> {
  const european = await validateEinvoice(xml, syntax);
  if (european.stage !== 'rules' || european.problems.length > 0) return european;
  const facturx = options.facturx && syntax === 'cii';
  if (facturx) {
    const problems = await facturxSchemaProblems(xml);
    if (problems.length > 0) return { ...european, ok: false, stage: 'schema', problems };
  }
  const asserts = [...european.asserts];
  for (const rules of facturx ? [frenchRules[syntax], facturxArtefacts.rules] : [frenchRules[syntax]]) {
    const found = await assertsOf(xml, rules);
    if (!Array.isArray(found)) return { ...european, ok: false, problems: [found] };
    asserts.push(...found);
  }
  return { ...european, ok: !asserts.some((a) => a.flag === 'fatal'), asserts: fatalFirst(asserts) };
}
