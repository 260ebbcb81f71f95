import { type EinvoiceSyntax, syntaxArtefacts } from './artefacts';
import { type FailedAssert, failedAsserts } from './schematron';
import { parseInvoice, rootProblem, schemaProblems, type XmlProblem } from './xml-checks';

export type { EinvoiceSyntax } from './artefacts';
export type { FailedAssert } from './schematron';
export type { XmlProblem } from './xml-checks';

export type EinvoiceValidation = {
  syntax: EinvoiceSyntax;
  /** Well-formed, accepted by the schema, and no fatal EN 16931 rule broken (warnings may remain). */
  ok: boolean;
  /**
   * Where validation stopped: `xml` not well-formed, `schema` refused by the XSD or not the syntax's root element
   * (the rules are then not run: on such a file they give misleading answers), `rules` the schematron ran.
   */
  stage: 'xml' | 'schema' | 'rules';
  problems: XmlProblem[];
  /** The schematron's failed asserts, fatal ones first. */
  asserts: FailedAssert[];
};

/**
 * Validates an EN 16931 invoice or credit note: well-formedness, then the CII D16B XML Schema (the official
 * artefacts ship none for UBL, whose root element is checked instead), then the EN 16931 schematron.
 * Never throws on bad input: whatever is wrong comes back in the answer.
 */
export async function validateEinvoice(xml: string, syntax: EinvoiceSyntax): Promise<EinvoiceValidation> {
  const artefacts = syntaxArtefacts[syntax];
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) return { syntax, ok: false, stage: 'xml', problems: parsed.problems, asserts: [] };
  let problems: XmlProblem[];
  try {
    const root = rootProblem(parsed.doc, artefacts);
    problems = root ? [root] : artefacts.xsd ? await schemaProblems(parsed.doc, artefacts.xsd) : [];
  } finally {
    parsed.doc.dispose();
  }
  if (problems.length > 0) return { syntax, ok: false, stage: 'schema', problems, asserts: [] };
  try {
    const asserts = await failedAsserts(xml, artefacts);
    return { syntax, ok: !asserts.some((a) => a.flag === 'fatal'), stage: 'rules', problems: [], asserts };
  } catch (error) {
    // The rules themselves fail on some values the XSD would have refused (e.g. `1 000,00` as an amount in UBL).
    const reason = error instanceof Error ? error.message : String(error);
    return {
      syntax,
      ok: false,
      stage: 'rules',
      problems: [{ message: `Les règles EN 16931 n’ont pas pu être évaluées : ${reason}`, line: 0, column: 0 }],
      asserts: [],
    };
  }
}

/** One French sentence for a refused file, naming what to look at (rule ids, or the first XML error and its line). */
export function validationSummary(result: EinvoiceValidation): string {
  const label = syntaxArtefacts[result.syntax].label;
  if (result.ok) return `Le XML ${label} est conforme à EN 16931`;
  const first = result.problems[0];
  const where = first && first.line > 0 ? ` (ligne ${first.line})` : '';
  if (result.stage === 'xml' && first) return `Le fichier n’est pas un XML lisible${where} : ${first.message}`;
  if (result.stage === 'schema' && first) return `Le XML ${label} ne respecte pas son schéma${where} : ${first.message}`;
  if (first) return first.message;
  const rules = [...new Set(result.asserts.filter((a) => a.flag === 'fatal').map((a) => a.rule))];
  return `Le XML ${label} enfreint les règles EN 16931 : ${rules.join(', ')}`;
}
