/**
 * What a buyer may tell a supplier about an invoice received through the platforms, and why (XP Z12-012 lifecycle
 * statuses; the reason codes each status accepts are those of the BR-FR-CDV-CL-09 rule, release 1.4.0.03).
 */
export const BUYER_STATUSES = {
  approved: { code: 205, label: 'Approuvée', verb: 'Approuver' },
  disputed: { code: 207, label: 'En litige', verb: 'Contester' },
  refused: { code: 210, label: 'Refusée', verb: 'Refuser' },
} as const;
export type BuyerStatus = keyof typeof BUYER_STATUSES;
export const BUYER_STATUS_KEYS = Object.keys(BUYER_STATUSES) as [BuyerStatus, ...BuyerStatus[]];

/** Every reason a refusal or a dispute may give, in words. */
export const STATUS_REASONS = {
  TX_TVA_ERR: 'Taux de TVA erroné',
  MONTANTTOTAL_ERR: 'Montant total erroné',
  CALCUL_ERR: 'Erreur de calcul',
  NON_CONFORME: 'Facture non conforme (mentions obligatoires)',
  DOUBLON: 'Facture reçue en double',
  DEST_INC: 'Destinataire inconnu',
  DEST_ERR: 'Mauvais destinataire',
  TRANSAC_INC: 'Transaction inconnue',
  EMMET_INC: 'Émetteur inconnu',
  CONTRAT_TERM: 'Contrat terminé',
  DOUBLE_FACT: 'Prestation ou livraison déjà facturée',
  CMD_ERR: 'Numéro de commande erroné ou absent',
  ADR_ERR: 'Adresse de facturation erronée',
  SIRET_ERR: 'SIRET erroné',
  CODE_ROUTAGE_ERR: 'Code de routage erroné',
  REF_CT_ABSENT: 'Référence du contrat absente',
  REF_ERR: 'Référence erronée',
  PU_ERR: 'Prix unitaire erroné',
  REM_ERR: 'Remise erronée',
  QTE_ERR: 'Quantité erronée',
  ART_ERR: 'Article erroné',
  MODPAI_ERR: 'Modalités de paiement erronées',
  QUALITE_ERR: 'Qualité non conforme',
  LIVR_INCOMP: 'Livraison incomplète',
  COORD_BANC_ERR: 'Coordonnées bancaires erronées',
  AUTRE: 'Autre motif',
} as const;
export type StatusReason = keyof typeof STATUS_REASONS;

/** The reasons each status accepts (BR-FR-CDV-CL-09: MDT-113_210 and MDT-113_207). */
export const REASONS_OF: Record<Exclude<BuyerStatus, 'approved'>, readonly StatusReason[]> = {
  refused: [
    'TX_TVA_ERR',
    'MONTANTTOTAL_ERR',
    'CALCUL_ERR',
    'NON_CONFORME',
    'DOUBLON',
    'DEST_ERR',
    'TRANSAC_INC',
    'EMMET_INC',
    'CONTRAT_TERM',
    'DOUBLE_FACT',
    'CMD_ERR',
    'ADR_ERR',
    'REF_CT_ABSENT',
  ],
  disputed: [
    'AUTRE',
    'COORD_BANC_ERR',
    'TX_TVA_ERR',
    'MONTANTTOTAL_ERR',
    'CALCUL_ERR',
    'NON_CONFORME',
    'DOUBLON',
    'DEST_INC',
    'DEST_ERR',
    'TRANSAC_INC',
    'EMMET_INC',
    'CONTRAT_TERM',
    'DOUBLE_FACT',
    'CMD_ERR',
    'ADR_ERR',
    'SIRET_ERR',
    'CODE_ROUTAGE_ERR',
    'REF_CT_ABSENT',
    'REF_ERR',
    'PU_ERR',
    'REM_ERR',
    'QTE_ERR',
    'ART_ERR',
    'MODPAI_ERR',
    'QUALITE_ERR',
    'LIVR_INCOMP',
  ],
};

/**
 * Why a status cannot follow those already sent, or null: an approval or a refusal settles the invoice; a dispute
 * waits for one of them.
 */
export function buyerStatusConflict(sent: readonly BuyerStatus[], next: BuyerStatus): string | null {
  if (sent.includes('refused')) return 'Cette facture a déjà été refusée : son statut ne change plus';
  if (sent.includes('approved')) return 'Cette facture a déjà été approuvée : son statut ne change plus';
  if (next === 'disputed' && sent.includes('disputed')) return 'Cette facture est déjà en litige';
  return null;
}
