import { cdarArtefacts } from './artefacts';
import { type FailedAssert, failedAsserts } from './schematron';
import { parseInvoice, schemaProblems, type XmlProblem } from './xml-checks';

export type CdarValidation = { problems: XmlProblem[]; asserts: FailedAssert[] };

/** A lifecycle message against the CDAR D22B schema, then the BR-FR-CDV rules (run only on a schema-valid message). */
export async function validateCdar(xml: string): Promise<CdarValidation> {
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) return { problems: parsed.problems, asserts: [] };
  let problems: XmlProblem[];
  try {
    problems = await schemaProblems(parsed.doc, cdarArtefacts.xsd);
  } finally {
    parsed.doc.dispose();
  }
  if (problems.length > 0) return { problems, asserts: [] };
  return { problems, asserts: await failedAsserts(xml, cdarArtefacts.rules) };
}

/** Whether nothing stops the message: no schema problem, no fatal rule. */
export const cdarValid = (result: CdarValidation) => result.problems.length === 0 && !result.asserts.some((a) => a.flag === 'fatal');
