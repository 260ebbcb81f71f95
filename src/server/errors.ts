import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * An error whose French message(s) we wrote for the user. Anything else that reaches the client is replaced by
 * the generic message of its code, so no English library text or stack trace ever leaves the server.
 */
export class AppError extends TRPCError {
  readonly messages: string | string[];
  constructor(code: TRPC_ERROR_CODE_KEY, messages: string | string[]) {
    super({ code, message: Array.isArray(messages) ? messages.join('\n') : messages });
    this.messages = messages;
  }
}

/** A function declaration (not an arrow) so that `if (!row) fail(…)` narrows `row` for the code after it. */
export function fail(code: TRPC_ERROR_CODE_KEY, messages: string | string[]): never {
  throw new AppError(code, messages);
}

export const INTERNAL_ERROR_MESSAGE = 'Erreur interne du serveur';

const defaultMessages: Partial<Record<TRPC_ERROR_CODE_KEY, string>> = {
  PARSE_ERROR: 'Le corps de la requête n’est pas un JSON valide',
  BAD_REQUEST: 'Requête invalide',
  UNAUTHORIZED: 'Veuillez vous connecter',
  FORBIDDEN: 'Action non autorisée',
  NOT_FOUND: 'Ressource introuvable',
  METHOD_NOT_SUPPORTED: 'Méthode non prise en charge pour cette adresse',
  CONFLICT: 'Cette action est en conflit avec l’état actuel',
  PAYLOAD_TOO_LARGE: 'La requête est trop volumineuse',
  TOO_MANY_REQUESTS: 'Trop de tentatives, réessayez plus tard',
  UNSUPPORTED_MEDIA_TYPE: 'Type de contenu non pris en charge (JSON attendu)',
};

/** French names of the fields our schemas validate, so that a message names what to fix. */
const fieldLabels: Record<string, string> = {
  first_name: 'Prénom',
  last_name: 'Nom',
  email: 'E-mail',
  password: 'Mot de passe',
  organization: 'Entreprise',
  token: 'Lien',
  message: 'Message',
  screenshot: 'Capture d’écran',
  key: 'Clé',
  currency_format: 'Format monétaire',
  address_format: 'Format d’adresse',
  theme: 'Thème',
  name: 'Nom',
  legal_name: 'Raison sociale',
  type: 'Type',
  phone: 'Téléphone',
  mobile: 'Mobile',
  web: 'Site web',
  business_id: 'SIREN/SIRET',
  vat_number: 'Numéro de TVA',
  address: 'Adresse',
  shipping: 'Adresse de livraison',
  line1: 'Adresse',
  line2: 'Complément d’adresse',
  city: 'Ville',
  state: 'Région',
  postal_code: 'Code postal',
  country: 'Pays',
  contacts: 'Contacts',
  language: 'Langue',
  currency: 'Devise',
  maturity: 'Délai de paiement',
  note: 'Note',
  description: 'Description',
  id: 'Identifiant',
  code: 'Code',
  sku: 'Référence',
  unit: 'Unité',
  unit_price: 'Prix unitaire',
  kind: 'Nature',
  active: 'Actif',
  tax_ids: 'TVA',
  tag_ids: 'Étiquettes',
  tag: 'Étiquette',
  color: 'Couleur',
  scopes: 'Portée',
  scope: 'Portée',
  payment_days: 'Délai de paiement',
  late_penalty_rate: 'Taux de pénalités',
  recovery_indemnity: 'Indemnité de recouvrement',
  escompte: 'Escompte',
  title: 'Intitulé',
  rate: 'Taux',
  legal_form: 'Forme juridique',
  capital: 'Capital',
  siret: 'SIRET',
  rcs_city: 'Ville du RCS',
  vat_regime: 'Régime de TVA',
  data_url: 'Logo',
  sender_name: 'Nom de l’expéditeur',
  reply_to: 'Adresse de réponse',
  smtp_url: 'Serveur SMTP',
  templates: 'Modèles d’e-mail',
  subject: 'Objet',
  body: 'Message',
  // Documents, payments and their lists.
  date: 'Date',
  sale_date: 'Date de la vente',
  vat_exemption: 'Exonération de TVA',
  condition: 'Conditions',
  header: 'En-tête',
  footer: 'Pied de page',
  terms: 'Conditions',
  discount_type: 'Type de remise',
  discount_value: 'Remise',
  shipping_details: 'Détails de livraison',
  additional_info: 'Informations complémentaires',
  deposit_request: 'Acomptes demandés',
  customer_id: 'Client',
  order_id: 'Commande',
  price_mode: 'Prix saisis',
  items: 'Lignes',
  item: 'Désignation',
  quantity: 'Quantité',
  taxes: 'Taxes',
  value: 'Valeur',
  amount: 'Montant',
  method: 'Moyen de paiement',
  reference: 'Référence',
  percent: 'Acompte',
  status: 'Statut',
  lines: 'Lignes',
  paymentId: 'Paiement',
  uuid: 'Lien',
  search: 'Recherche',
  period: 'Période',
  from: 'Du',
  to: 'Au',
  min_amount: 'Montant minimum',
  max_amount: 'Montant maximum',
  page: 'Page',
  per_page: 'Lignes par page',
  sort_by: 'Tri',
  sort_order: 'Ordre de tri',
};

/** Labels our schemas' messages already open with, where the key alone would name another field ('shipping'). */
const OWN_LABELS = new Set([
  ...Object.values(fieldLabels),
  'Frais de port',
  'Échéance',
  'Acompte',
  'Taux de taxe',
  'Taxe',
  'Montant du paiement',
  'Date du paiement',
]);

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

function isZodErrorLike(cause: unknown): cause is { issues: IssueLike[] } {
  return typeof cause === 'object' && cause !== null && Array.isArray((cause as { issues?: unknown }).issues);
}

function labelOf(path: PropertyKey[]): string {
  const names = path.map(String);
  const last = [...names].reverse().find((n) => !/^\d+$/.test(n));
  const label = last !== undefined ? fieldLabels[last] : undefined;
  return label ?? names.join('.');
}

/** One message per offending field; a message that does not already name its field is prefixed with it. */
export function validationMessages(issues: IssueLike[]): string[] {
  const seen = new Set<string>();
  for (const issue of issues) {
    let text = issue.message;
    if (issue.path.length > 0) {
      const label = labelOf(issue.path);
      // 'SIREN/SIRET' is named by a message about either.
      // A message that opens with a field's label of its own ('Frais de port : …') is kept as written.
      const named =
        label
          .toLowerCase()
          .split('/')
          .some((part) => text.toLowerCase().includes(part)) || OWN_LABELS.has(text.split(' : ')[0]!);
      if (!named) text = `${label} : ${text}`;
      // A document line is named by its position, as the editor numbers it ('Ligne 3 — Quantité : …').
      const at = issue.path.findIndex((p) => p === 'items' || p === 'lines');
      if (at !== -1 && typeof issue.path[at + 1] === 'number') text = `Ligne ${(issue.path[at + 1] as number) + 1} — ${text}`;
    }
    seen.add(text);
  }
  return [...seen];
}

export function messagesOf(error: TRPCError): string | string[] {
  if (error instanceof AppError) return error.messages;
  if (error.code === 'BAD_REQUEST' && isZodErrorLike(error.cause)) {
    const list = validationMessages(error.cause.issues);
    return list.length === 1 ? list[0]! : list;
  }
  if (error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError) return defaultMessages.PARSE_ERROR!; // tRPC's `input=` query
  return defaultMessages[error.code] ?? INTERNAL_ERROR_MESSAGE;
}
