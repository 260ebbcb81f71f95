/**
 * Where an invoice's submission to the Plateforme Agréée stands (XP Z12-013 Flow Service), and the platform's reason
 * codes in words a user can act on. Pure: the server answers these labels, the document page shows them.
 */
export const FLOW_STATES = {
  pending: 'En attente d’envoi',
  submitted: 'Transmise, en attente de l’accusé de réception',
  acknowledged: 'Déposée',
  error: 'Refusée par la plateforme',
  to_resend: 'À renvoyer',
} as const;
export type FlowState = keyof typeof FLOW_STATES;
export const FLOW_STATE_KEYS = Object.keys(FLOW_STATES) as [FlowState, ...FlowState[]];

/** What the user can send again by hand (« Renvoyer »): a refusal once fixed, or what the outbox gave up on. */
export const RESENDABLE_STATES: readonly FlowState[] = ['error', 'to_resend'];

export const ACK_STATUS_LABELS = { Pending: 'en attente', Ok: 'reçue et conforme', Error: 'en erreur' } as const;

/**
 * XP Z12-013 `ReasonCodeEnum` (the reasons of an acknowledgement in Error) in French, each saying what to do. A code
 * the platform added beyond the list is shown with the platform's own message.
 */
export const FLOW_REASONS = {
  EmptyAttachement: 'Une pièce jointe de la facture est vide.',
  AttachmentTypeError: 'Le type d’une pièce jointe n’est pas accepté par la plateforme.',
  EmptyFlow: 'Le fichier envoyé est vide : renvoyez la facture.',
  OtherTechnicalError: 'Erreur technique de la plateforme : renvoyez la facture, puis contactez la plateforme si elle persiste.',
  InvalidSchema:
    'Le fichier ne respecte pas le format déclaré : vérifiez le format et le profil choisis dans Paramètres → Facturation électronique.',
  FileSizeExceeded: 'Le fichier dépasse la taille acceptée par la plateforme.',
  FlowTypeError: 'Le format ou le profil déclaré ne correspond pas au fichier : vérifiez-les dans Paramètres → Facturation électronique.',
  AlreadyExistingFlow: 'Cette facture a déjà été déposée sur la plateforme.',
  VirusFound: 'La plateforme a détecté un virus dans le fichier.',
  ChecksumMismatch: 'Le fichier reçu par la plateforme ne correspond pas à son empreinte (transmission altérée) : renvoyez la facture.',
  InvoiceLCInvalidStatus: 'Un ou plusieurs statuts de cycle de vie sont incohérents.',
  InvoiceLCStatusError: 'Un ou plusieurs statuts de cycle de vie sont incorrects ou non autorisés.',
  InvoiceLCRuleError: 'Une ou plusieurs règles du cycle de vie ne sont pas respectées.',
  InvoiceLCAccessDenied: 'La plateforme refuse ce statut de cycle de vie à ce compte.',
  InvoiceLCAmountError: 'Un ou plusieurs montants sont incohérents avec la TVA.',
} as const satisfies Record<string, string>;

/** One reason as the platform gave it (code, item, its message), put into French. */
export function reasonInFrench(reason: { code: string; message: string }): string {
  const known = (FLOW_REASONS as Record<string, string | undefined>)[reason.code];
  if (known) return known;
  return reason.message ? `${reason.message} (code ${reason.code})` : `Refus de code ${reason.code}.`;
}
