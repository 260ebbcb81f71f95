import { fail } from '../errors';
import { logger } from '../logger';
import { runHeavy } from '../workers/heavy-work';
import { validationSummary } from './validate';

/**
 * Refuses (409, in French, with the rule ids) an XML that is not EN 16931; logs why. The validation (seconds for
 * thousands of lines) runs in a worker thread, within its time and memory budget.
 */
export async function assertValidEinvoice(xml: string, number: string): Promise<void> {
  const result = await runHeavy('validateEinvoice', [xml, 'cii']);
  if (result.ok) return;
  const summary = validationSummary(result);
  const fatal = result.asserts.filter((a) => a.flag === 'fatal');
  logger.error(
    `EN 16931 validation refused the issue of ${number}`,
    [
      summary,
      ...fatal.map((a) => `${a.rule} ${a.message} (${a.location})`),
      ...result.problems.map((p) => `${p.line}:${p.column} ${p.message}`),
    ].join('\n'),
  );
  fail(
    'CONFLICT',
    `Émission refusée : la facture électronique (CII EN 16931) de ce document ne serait pas conforme. ${summary}. Vérifiez le document ; si tout y est juste, signalez-le (le détail est dans le journal du serveur).`,
  );
}
