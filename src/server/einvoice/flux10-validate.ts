import { flux10Artefacts } from './artefacts';
import { type FailedAssert, failedAsserts } from './schematron';
import { parseInvoice, schemaProblems, type XmlProblem } from './xml-checks';

export type Flux10Validation = { problems: XmlProblem[]; asserts: FailedAssert[] };

/** An e-reporting file against the Flux 10 schema, then the PPF schematron (run only on a schema-valid file). */
export async function validateFlux10(xml: string): Promise<Flux10Validation> {
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) return { problems: parsed.problems, asserts: [] };
  let problems: XmlProblem[];
  try {
    problems = await schemaProblems(parsed.doc, flux10Artefacts.xsd);
  } finally {
    parsed.doc.dispose();
  }
  if (problems.length > 0) return { problems, asserts: [] };
  return { problems, asserts: await failedAsserts(xml, flux10Artefacts.rules) };
}

/** Whether nothing stops the report: no schema problem, no fatal rule. */
export const flux10Valid = (result: Flux10Validation) => result.problems.length === 0 && !result.asserts.some((a) => a.flag === 'fatal');
