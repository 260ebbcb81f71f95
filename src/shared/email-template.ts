import { DOCUMENT_TYPES } from './schemas/document';
import { defined } from './defined';
import { byType, DOCUMENT_TYPE_TABLE } from './document-types';
import { fillWithElision } from './french';

/** The mail templates of Paramètres → Envoi d'emails: one per document type, plus payment reminders. */
export const EMAIL_TEMPLATE_TYPES = [...DOCUMENT_TYPES, 'reminder'] as const;
export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

export const EMAIL_TEMPLATE_LABELS: Record<EmailTemplateType, string> = {
  ...byType((t) => t.one),
  reminder: 'Relance de paiement',
};

/** What a template may say in curly braces; anything else in braces is refused on save. */
export const EMAIL_PLACEHOLDERS = [
  'document_type',
  'document_number',
  'customer_name',
  'organization_name',
  'total',
  'amount_due',
  'date',
  'due_date',
  'link',
] as const;
export type EmailPlaceholder = (typeof EMAIL_PLACEHOLDERS)[number];
export type EmailValues = Partial<Record<EmailPlaceholder, string>>;

export const EMAIL_PLACEHOLDER_LABELS: Record<EmailPlaceholder, string> = {
  document_type: 'Type de document (facture, devis…)',
  document_number: 'Numéro du document',
  customer_name: 'Nom du client',
  organization_name: 'Nom de votre entreprise',
  total: 'Montant total TTC',
  amount_due: 'Reste à payer',
  date: 'Date du document',
  due_date: 'Échéance ou date de validité',
  link: 'Lien de consultation en ligne',
};

const known = new Set<string>(EMAIL_PLACEHOLDERS);
const isPlaceholder = (name: string): name is EmailPlaceholder => known.has(name);

/** `{…}` without nested braces: the shape a placeholder takes, known or not. */
const BRACED = /\{([^{}]*)\}/g;

/** The distinct `{…}` of a template that are not placeholders, as written (e.g. `{montant}`). */
export function unknownPlaceholders(template: string): string[] {
  const found = new Set<string>();
  for (const match of template.matchAll(BRACED)) if (!isPlaceholder(defined(match[1], 'match[1]'))) found.add(match[0]);
  return [...found];
}

/**
 * Replaces each known placeholder by its value ('' when missing), in one pass: a value is inserted as is and never
 * expanded in turn, so a customer named "{link}" cannot pull other values into the mail. Unknown `{…}` stay as
 * written (saving refuses them anyway).
 */
export function renderEmailTemplate(template: string, values: EmailValues): string {
  // « de {organization_name} » becomes « d’Atelier » when the name starts with a vowel.
  return fillWithElision(template, (name) => (isPlaceholder(name) ? (values[name] ?? '') : null));
}

/** Mid-sentence names of each type, for {document_type}. */
export const DOCUMENT_TYPE_WORDS: Record<EmailTemplateType, string> = {
  ...byType((t) => t.mailNoun),
  reminder: DOCUMENT_TYPE_TABLE.invoice.mailNoun,
};

/** Numbers of the sample mail, a 2025 invoice like its dates and amounts below (not the types' sample numbers). */
const SAMPLE_NUMBERS: Record<EmailTemplateType, string> = {
  invoice: 'F2025-0042',
  estimate: 'D2025-0017',
  proforma: 'PF2025-0008',
  order: 'BC2025-0011',
  delivery: 'BL2025-0023',
  credit: 'AV2025-0003',
  reminder: 'F2025-0042',
};

/** Example values for the settings preview and the test mail. */
export function sampleEmailValues(
  type: EmailTemplateType,
  opts: { organizationName: string; link?: string },
): Record<EmailPlaceholder, string> {
  return {
    document_type: DOCUMENT_TYPE_WORDS[type],
    document_number: SAMPLE_NUMBERS[type],
    customer_name: 'Martin & Fils SARL',
    organization_name: opts.organizationName,
    total: '1 250,00 €',
    amount_due: '450,00 €',
    date: '15/03/2025',
    due_date: '14/04/2025',
    link: opts.link ?? 'https://facturier.example/share/3f6c1a52-8d3e-4b7a-9f0e-2c4d5e6f7a8b',
  };
}
