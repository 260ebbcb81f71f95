/**
 * The lifecycle statuses of an electronic invoice under the French reform, as the approved platforms
 * exchange them (status codes of the AFNOR XP Z12-012 external specifications). Four are mandatory: Déposée,
 * Rejetée, Refusée, Encaissée; the others are what a platform may report. `cash_withdrawn` is Facturier's own: it
 * records that an Encaissée no longer holds (its payment was reversed), the history staying append-only.
 */
export const LIFECYCLE_STATUSES = {
  deposited: { code: 200, label: 'Déposée', mandatory: true },
  issued_by_platform: { code: 201, label: 'Émise par la plateforme', mandatory: false },
  received_by_platform: { code: 202, label: 'Reçue par la plateforme du client', mandatory: false },
  made_available: { code: 203, label: 'Mise à disposition du client', mandatory: false },
  taken_over: { code: 204, label: 'Prise en charge', mandatory: false },
  approved: { code: 205, label: 'Approuvée', mandatory: false },
  partially_approved: { code: 206, label: 'Approuvée partiellement', mandatory: false },
  disputed: { code: 207, label: 'En litige', mandatory: false },
  suspended: { code: 208, label: 'Suspendue', mandatory: false },
  completed: { code: 209, label: 'Complétée', mandatory: false },
  refused: { code: 210, label: 'Refusée', mandatory: true },
  payment_sent: { code: 211, label: 'Paiement transmis', mandatory: false },
  cashed: { code: 212, label: 'Encaissée', mandatory: true },
  rejected: { code: 213, label: 'Rejetée', mandatory: true },
  cash_withdrawn: { code: null, label: 'Encaissement annulé', mandatory: false },
} as const satisfies Record<string, { code: number | null; label: string; mandatory: boolean }>;

export type LifecycleStatus = keyof typeof LIFECYCLE_STATUSES;
export const LIFECYCLE_STATUS_KEYS = Object.keys(LIFECYCLE_STATUSES) as [LifecycleStatus, ...LifecycleStatus[]];

export const LIFECYCLE_SOURCES = { platform: 'Plateforme', user: 'Saisie manuelle', automatic: 'Automatique' } as const;
export type LifecycleSource = keyof typeof LIFECYCLE_SOURCES;

/** The status a platform code names (an update may carry the code rather than the key). */
export const statusOfCode = (code: number): LifecycleStatus | undefined =>
  LIFECYCLE_STATUS_KEYS.find((key) => LIFECYCLE_STATUSES[key].code === code);

/** Statuses that state a problem: they are recorded with their reason. */
export const REASON_REQUIRED: readonly LifecycleStatus[] = ['rejected', 'refused', 'disputed', 'suspended'];

/** What a person may record by hand (what the platform told them elsewhere, or what the customer said). */
export const MANUAL_STATUSES: readonly LifecycleStatus[] = ['deposited', 'rejected', 'refused', 'disputed', 'approved', 'cashed'];

/** The statuses that come from the customer's side: once one is known, the platform can no longer reject on format. */
const BUYER_SIDE: readonly LifecycleStatus[] = [
  'made_available',
  'taken_over',
  'approved',
  'partially_approved',
  'disputed',
  'suspended',
  'completed',
  'refused',
  'payment_sent',
];

/** What the history says now, folded from its entries in order. */
export interface LifecycleState {
  deposited: boolean;
  /** Rejetée (by the platform) or Refusée (by the customer): nothing follows either. */
  closed: 'rejected' | 'refused' | null;
  /** Encaissée and not withdrawn since; `cashedBy` says who recorded it. */
  cashed: boolean;
  cashedBy: LifecycleSource | null;
  reachedBuyer: boolean;
}

export function lifecycleState(entries: readonly { status: LifecycleStatus; source: LifecycleSource }[]): LifecycleState {
  const state: LifecycleState = { deposited: false, closed: null, cashed: false, cashedBy: null, reachedBuyer: false };
  for (const { status, source } of entries) {
    if (status === 'deposited') state.deposited = true;
    if (status === 'rejected' || status === 'refused') state.closed = status;
    if (status === 'cashed') Object.assign(state, { cashed: true, cashedBy: source });
    if (status === 'cash_withdrawn') Object.assign(state, { cashed: false, cashedBy: null });
    if (BUYER_SIDE.includes(status)) state.reachedBuyer = true;
  }
  return state;
}

/**
 * Why `next` cannot follow the history, in French, or null when it may. The reform's rules as Facturier applies them:
 * a rejected invoice is deemed never issued and a refused one is disputed as a whole — both are settled by a credit
 * note, so nothing follows them; a cashed invoice can no longer be rejected or refused; a credit note is not cashed.
 */
export function lifecycleConflict(state: LifecycleState, next: LifecycleStatus, documentType: 'invoice' | 'credit'): string | null {
  if (state.closed === 'rejected')
    return 'Cette facture a été rejetée par la plateforme : son statut ne change plus (émettez un avoir puis une facture corrigée)';
  if (state.closed === 'refused') {
    if (next === 'cashed') return 'Une facture refusée par le client ne peut pas être encaissée';
    return 'Cette facture a été refusée par le client : son statut ne change plus (émettez un avoir si le refus est fondé)';
  }
  switch (next) {
    case 'deposited':
      return state.deposited ? 'La facture est déjà déposée sur la plateforme' : null;
    case 'rejected':
      if (state.cashed) return 'Une facture encaissée ne peut plus être rejetée';
      return state.reachedBuyer ? 'La plateforme ne peut plus rejeter une facture déjà mise à disposition du client' : null;
    case 'refused':
      return state.cashed ? 'Une facture encaissée ne peut plus être refusée' : null;
    case 'cashed':
      if (documentType === 'credit') return 'Un avoir ne s’encaisse pas : seules les factures sont encaissées';
      return state.cashed ? 'La facture est déjà encaissée' : null;
    case 'cash_withdrawn':
      return state.cashed ? null : 'La facture n’est pas encaissée : il n’y a pas d’encaissement à annuler';
    default:
      return null;
  }
}
