import { FLOW_REASONS } from './einvoice-flows';

/**
 * What the platform answers about an e-reporting flow (Flux 10), in words a user can act on. The platform checks the
 * file, then passes it to the PPF, which checks it again against the Flux 10 rules (`[G…]` rule ids, their message in
 * French): a rejected report is sent again, corrected, as a new initial one. Pure: the server stores the reasons in
 * French, the e-reporting screen shows them.
 */

/** Where a submitted report stands once the platform has answered. */
export const REPORT_ACK_LABELS = { Pending: 'Déposée', Ok: 'Acceptée', Error: 'Rejetée' } as const;

/** The rejection codes of the PPF's e-reporting flows, and the platform's own checks of a file. */
export const EREPORTING_REASONS: Record<string, string> = {
  REJ_SCHEMA: 'Le fichier ne respecte pas le schéma Flux 10',
  REJ_SEMAN: 'Une règle de gestion Flux 10 n’est pas respectée',
  REJ_UNI: 'Cette déclaration a déjà été reçue (doublon)',
  REJ_COH: 'Les montants ou les données de la déclaration sont incohérents',
  REJ_PER: 'La période déclarée ne correspond pas à votre régime de déclaration',
  IRR_SYNTAX: 'Le fichier n’est pas un XML lisible',
  IRR_TYPE_F: 'Le type de fichier n’est pas celui d’une déclaration e-reporting',
  IRR_VIDE_F: 'Le fichier envoyé est vide',
  IRR_TAILLE_F: 'Le fichier dépasse la taille acceptée',
  ...Object.fromEntries(
    Object.entries(FLOW_REASONS).map(([code, text]) => [code, text.replace(/\.$/, '').replace(/la facture/g, 'la déclaration')]),
  ),
};

/** One reason of a rejection in French: the code's meaning, then the rule the platform names (already in French). */
export function reportReasonInFrench(reason: { reasonCode: string; reasonMessage: string }): string {
  const known = EREPORTING_REASONS[reason.reasonCode];
  const message = reason.reasonMessage.trim();
  if (!known) return message ? `${message} (code ${reason.reasonCode})` : `Rejet de code ${reason.reasonCode}`;
  return message ? `${known} : ${message}` : known;
}
