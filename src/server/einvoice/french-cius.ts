import { type EinvoiceSyntax, frenchRules } from './artefacts';
import { type FailedAssert, failedAsserts } from './schematron';
import { type EinvoiceValidation, validateEinvoice } from './validate';

/**
 * EN 16931, then the French CIUS (BR-FR-Flux2) on what passed it: what a Plateforme Agréée checks before it accepts
 * an invoice. `ok` means no fatal assert in either; warnings are kept for the caller to count.
 */
export async function validateFrenchEinvoice(xml: string, syntax: EinvoiceSyntax): Promise<EinvoiceValidation> {
  const european = await validateEinvoice(xml, syntax);
  if (european.stage !== 'rules' || european.problems.length > 0) return european;
  let french: FailedAssert[];
  try {
    french = await failedAsserts(xml, frenchRules[syntax]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...european,
      ok: false,
      problems: [{ message: `Les règles françaises (BR-FR) n’ont pas pu être évaluées : ${reason}`, line: 0, column: 0 }],
    };
  }
  const asserts = [...european.asserts, ...french];
  return {
    ...european,
    ok: !asserts.some((a) => a.flag === 'fatal'),
    asserts: [...asserts.filter((a) => a.flag === 'fatal'), ...asserts.filter((a) => a.flag === 'warning')],
  };
}
