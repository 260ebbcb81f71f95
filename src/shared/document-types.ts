/** The six document types: the one list, read by the schemas (schemas/document.ts) and by the screens without zod. */
export const DOCUMENT_TYPES = ['invoice', 'estimate', 'proforma', 'order', 'delivery', 'credit'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** The list types: the six document types plus recurring invoices. */
export const LIST_TYPES = [...DOCUMENT_TYPES, 'recurring'] as const;
export type ListType = (typeof LIST_TYPES)[number];

/** Every status a document is stored with: the one list, read by the schemas and by the rows' mapping. */
export const STORED_STATUSES = [
  'draft',
  'unpaid',
  'partial',
  'paid',
  'canceled',
  'pending',
  'accepted',
  'refused',
  'converted',
  'done',
] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
export const isStoredStatus = (status: string): status is StoredStatus => (STORED_STATUSES as readonly string[]).includes(status);

/** Everything that depends on a document's type, for the server and the screens alike. */
export interface DocumentTypeInfo {
  /** 'Facture': a label, a menu entry ("Convertir en facture"), the search index. */
  one: string;
  /** Lower-case singular and plural nouns: the count above a list, its empty state. */
  noun: string;
  /** The name a mail gives the document mid-sentence, for {document_type} ('votre facture proforma'). */
  mailNoun: string;
  plural: string;
  /** 'une facture', 'cette facture': for messages. */
  article: string;
  the: string;
  /** Grammatical gender, for the agreement of messages ("émise"). */
  feminine: boolean;
  /** The document_name element of the rendered document. */
  title: string;
  /** The template designer's name for the type (texts and numbering per type). */
  templateLabel: string;
  /** Number label. */
  numberLabel: string;
  /** Maturity label. */
  maturityLabel: string;
  /** False for a credit note: it is settled against an invoice or refunded, it has no due date to show. */
  hasMaturity: boolean;
  /** The editor's name of the maturity date, in the message that says it cannot precede the document's date. */
  maturityName: string;
  /** The block of conditions: payment conditions on legal records, plain conditions elsewhere. */
  conditionsLabel: string;
  /** Who the document is addressed to, above the customer's address. */
  recipientLabel: string;
  /** Editor title, list title and route base. */
  editorTitle: string;
  listTitle: string;
  base: string;
  /** The PDF's file name before the number: 'Facture' → 'Facture-F2026-0042.pdf'. */
  fileName: string;
  /** The default numbering series (prefix, {year} replaced). */
  numberPrefix: string;
  /** A number as the template preview and sample documents show it. */
  sampleNumber: string;
  /** The total amount is shown (not on delivery notes). */
  showsTotal: boolean;
  /** Invoices and credit notes are legal records once issued (CGI art. 242 nonies A): never deleted, never re-priced. */
  legalRecord: boolean;
  /** Has an EN 16931 e-invoice once issued (CII, UBL, Factur-X), and its lifecycle with the Plateforme Agréée. */
  einvoice: boolean;
  /** Why an issued legal record is neither edited nor deleted, with the way out; null for the other types. */
  issuedRefusals: { edit: string; remove: string } | null;
  /** Only invoices receive payments (and owe what is left). */
  receivesPayments: boolean;
  /** The account to pay by transfer is printed: what asks for money (deposits on quotes and orders included). */
  printsPaymentAccount: boolean;
  /** The status a document takes when it is issued (leaves draft). */
  issuedStatus: StoredStatus;
  /** Transitions a person asks for by hand; payments and conversions move the rest. */
  manualTransitions: Partial<Record<StoredStatus, StoredStatus[]>>;
  /** What the type may be converted into (the documents issue §5) and from which statuses. */
  conversions: DocumentType[];
  convertibleFrom: StoredStatus[];
  /** The statuses a list of the type can be filtered by (invoices add derived ones: overdue, sent, open). */
  statusFilters: string[];
  /** The empty list's invitation, in the noun's gender. */
  firstHint: string;
  /** What issuing asks first, when issuing is final (a legal record); null: no question. */
  issueQuestion: string | null;
}

const QUOTE_TRANSITIONS: Partial<Record<StoredStatus, StoredStatus[]>> = {
  pending: ['accepted', 'refused'],
  accepted: ['pending'],
  refused: ['pending'],
};
const DONE_TRANSITIONS: Partial<Record<StoredStatus, StoredStatus[]>> = { pending: ['done'], done: ['pending'] };

/** The one table per document type. */
export const DOCUMENT_TYPE_TABLE: Record<DocumentType, DocumentTypeInfo> = {
  invoice: {
    one: 'Facture',
    noun: 'facture',
    mailNoun: 'facture',
    plural: 'factures',
    article: 'une facture',
    the: 'cette facture',
    feminine: true,
    title: 'Facture',
    templateLabel: 'Facture',
    numberLabel: 'Facture n°',
    maturityLabel: "Date d'échéance",
    maturityName: 'Échéance',
    hasMaturity: true,
    conditionsLabel: 'Conditions de paiement',
    recipientLabel: 'Client',
    editorTitle: 'Nouvelle facture',
    listTitle: 'Factures',
    base: '/invoices',
    fileName: 'Facture',
    numberPrefix: 'F{year}-',
    sampleNumber: 'F2026-0042',
    showsTotal: true,
    legalRecord: true,
    einvoice: true,
    issuedRefusals: {
      edit: 'Une facture émise ne se modifie plus (CGI art. 242 nonies A) : corrigez-la par un avoir',
      remove: 'Une facture émise ne peut être supprimée (CGI art. 242 nonies A) : annulez-la par un avoir',
    },
    receivesPayments: true,
    printsPaymentAccount: true,
    issuedStatus: 'unpaid',
    manualTransitions: {},
    conversions: ['credit'],
    convertibleFrom: ['unpaid', 'partial', 'paid'],
    statusFilters: ['draft', 'open', 'unpaid', 'partial', 'paid', 'overdue', 'sent', 'canceled'],
    firstHint: 'Créez la première : elle apparaîtra ici, avec son statut et ce qu’il reste à encaisser.',
    issueQuestion:
      'La facture reçoit son numéro définitif et ne pourra plus être modifiée ni supprimée : une erreur se corrigera par un avoir. Émettre maintenant ?',
  },
  estimate: {
    one: 'Devis',
    noun: 'devis',
    mailNoun: 'devis',
    plural: 'devis',
    article: 'un devis',
    the: 'ce devis',
    feminine: false,
    title: 'Devis',
    templateLabel: 'Devis',
    numberLabel: 'Devis n°',
    maturityLabel: "Valide jusqu'au",
    maturityName: 'Date de validité',
    hasMaturity: true,
    conditionsLabel: 'Conditions du devis',
    recipientLabel: 'Client',
    editorTitle: 'Nouveau devis',
    listTitle: 'Devis',
    base: '/estimates',
    fileName: 'Devis',
    numberPrefix: 'D{year}-',
    sampleNumber: 'D2026-0017',
    showsTotal: true,
    legalRecord: false,
    einvoice: false,
    issuedRefusals: null,
    receivesPayments: false,
    printsPaymentAccount: true,
    issuedStatus: 'pending',
    manualTransitions: QUOTE_TRANSITIONS,
    conversions: ['invoice', 'order', 'proforma'],
    convertibleFrom: ['pending', 'accepted', 'converted'],
    statusFilters: ['draft', 'pending', 'accepted', 'refused', 'converted'],
    firstHint: 'Créez le premier : il apparaîtra ici avec son statut, prêt à être converti en facture.',
    issueQuestion: null,
  },
  proforma: {
    one: 'Proforma',
    noun: 'proforma',
    mailNoun: 'facture proforma',
    plural: 'proformas',
    article: 'une proforma',
    the: 'cette proforma',
    feminine: true,
    title: 'Facture pro forma',
    templateLabel: 'Pro forma',
    numberLabel: 'Pro forma n°',
    maturityLabel: "Valide jusqu'au",
    maturityName: 'Date de validité',
    hasMaturity: true,
    conditionsLabel: 'Conditions',
    recipientLabel: 'Client',
    editorTitle: 'Créer une proforma',
    listTitle: 'Proformas',
    base: '/proformas',
    fileName: 'Proforma',
    numberPrefix: 'PF{year}-',
    sampleNumber: 'PF2026-0005',
    showsTotal: true,
    legalRecord: false,
    einvoice: false,
    issuedRefusals: null,
    receivesPayments: false,
    printsPaymentAccount: true,
    issuedStatus: 'pending',
    manualTransitions: QUOTE_TRANSITIONS,
    conversions: ['invoice'],
    convertibleFrom: ['pending', 'accepted', 'converted'],
    statusFilters: ['draft', 'pending', 'accepted', 'refused', 'converted'],
    firstHint: 'Créez la première : elle apparaîtra ici avec son statut.',
    issueQuestion: null,
  },
  order: {
    one: 'Bon de commande',
    noun: 'bon de commande',
    mailNoun: 'bon de commande',
    plural: 'bons de commande',
    article: 'un bon de commande',
    the: 'ce bon de commande',
    feminine: false,
    title: 'Bon de commande',
    templateLabel: 'Bon de commande',
    numberLabel: 'Commande n°',
    maturityLabel: 'Date de livraison',
    maturityName: 'Échéance',
    hasMaturity: true,
    conditionsLabel: 'Conditions',
    recipientLabel: 'Client',
    editorTitle: 'Créer un bon de commande',
    listTitle: 'Bons de commande',
    base: '/orders',
    fileName: 'Bon-de-commande',
    numberPrefix: 'BC{year}-',
    sampleNumber: 'BC2026-0009',
    showsTotal: true,
    legalRecord: false,
    einvoice: false,
    issuedRefusals: null,
    receivesPayments: false,
    printsPaymentAccount: true,
    issuedStatus: 'pending',
    manualTransitions: DONE_TRANSITIONS,
    conversions: ['delivery', 'invoice'],
    convertibleFrom: ['pending', 'done', 'converted'],
    statusFilters: ['draft', 'pending', 'done', 'converted'],
    firstHint: 'Créez le premier : il apparaîtra ici avec son statut.',
    issueQuestion: null,
  },
  delivery: {
    one: 'Bon de livraison',
    noun: 'bon de livraison',
    mailNoun: 'bon de livraison',
    plural: 'bons de livraison',
    article: 'un bon de livraison',
    the: 'ce bon de livraison',
    feminine: false,
    title: 'Bon de livraison',
    templateLabel: 'Bon de livraison',
    numberLabel: 'Livraison n°',
    maturityLabel: 'Date de livraison',
    maturityName: 'Échéance',
    hasMaturity: true,
    conditionsLabel: 'Conditions',
    recipientLabel: 'Destinataire',
    editorTitle: 'Créer un bon de livraison',
    listTitle: 'Bons de livraison',
    base: '/deliveries',
    fileName: 'Bon-de-livraison',
    numberPrefix: 'BL{year}-',
    sampleNumber: 'BL2026-0011',
    showsTotal: false,
    legalRecord: false,
    einvoice: false,
    issuedRefusals: null,
    receivesPayments: false,
    printsPaymentAccount: false,
    issuedStatus: 'pending',
    manualTransitions: DONE_TRANSITIONS,
    conversions: ['invoice'],
    convertibleFrom: ['pending', 'done', 'converted'],
    statusFilters: ['draft', 'pending', 'done', 'converted'],
    firstHint: 'Créez le premier : il apparaîtra ici avec son statut.',
    issueQuestion: null,
  },
  credit: {
    one: 'Avoir',
    noun: 'avoir',
    mailNoun: 'avoir',
    plural: 'avoirs',
    article: 'un avoir',
    the: 'cet avoir',
    feminine: false,
    title: 'Avoir',
    templateLabel: 'Avoir',
    numberLabel: 'Crédit n°',
    maturityLabel: "Date d'échéance",
    maturityName: 'Échéance',
    hasMaturity: false,
    conditionsLabel: 'Conditions de paiement',
    recipientLabel: 'Client',
    editorTitle: 'Créer un avoir',
    listTitle: 'Avoirs',
    base: '/credits',
    fileName: 'Avoir',
    numberPrefix: 'AV{year}-',
    sampleNumber: 'AV2026-0003',
    showsTotal: true,
    legalRecord: true,
    einvoice: true,
    issuedRefusals: { edit: 'Un avoir émis ne se modifie plus', remove: 'Un avoir émis ne peut être supprimé' },
    receivesPayments: false,
    printsPaymentAccount: false,
    issuedStatus: 'pending',
    manualTransitions: DONE_TRANSITIONS,
    conversions: [],
    convertibleFrom: [],
    statusFilters: ['draft', 'pending', 'done'],
    firstHint: 'Un avoir se crée depuis la facture qu’il corrige (menu de la facture, « Convertir en avoir ») : il apparaîtra ici.',
    issueQuestion: 'L’avoir reçoit son numéro définitif et ne pourra plus être modifié ni supprimé. Émettre maintenant ?',
  },
};

export const documentTypeInfo = (type: DocumentType): DocumentTypeInfo => DOCUMENT_TYPE_TABLE[type];

/** The list pages: one per document type, plus the recurring invoices, which are not a document type. */
export const LIST_TABLE: Record<ListType, Pick<DocumentTypeInfo, 'editorTitle' | 'listTitle' | 'base'>> = {
  ...DOCUMENT_TYPE_TABLE,
  recurring: { editorTitle: 'Créer une facture régulière', listTitle: 'Factures récurrentes', base: '/recurring' },
};

/** One field of the table for every type, e.g. `byType((t) => t.numberLabel)`. */
export function byType<T>(pick: (info: DocumentTypeInfo) => T): Record<DocumentType, T> {
  const entries = Object.entries(DOCUMENT_TYPE_TABLE) as [DocumentType, DocumentTypeInfo][];
  return Object.fromEntries(entries.map(([type, info]) => [type, pick(info)])) as Record<DocumentType, T>;
}

/** 'Facture-F2026-0042.pdf': the type and the number, with nothing a file system could choke on. */
export const pdfFileName = (type: DocumentType, kind: string, number: string): string =>
  `${kind === 'deposit' ? 'Facture-acompte' : DOCUMENT_TYPE_TABLE[type].fileName}-${number.replace(/[^\w.-]+/g, '-')}.pdf`;
