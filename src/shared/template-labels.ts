// French names for the document template's options, for the designer. The template's field labels are on
// its schema (schemas/template.ts), which names a field by its whole path in validation messages.
import type { DocumentType } from './schemas/document';
import { byType } from './document-types';
import { documentTemplateSchema, type TABLE_COLUMN_TYPES, type TemplateElement } from './schemas/template';
import { fieldLabelAt, type IssueDetail, validationMessages } from './validation-messages';

export const TEMPLATE_TYPE_LABELS: Record<DocumentType, string> = byType((t) => t.templateLabel);

export const ELEMENT_LABELS: Record<TemplateElement['type'], string> = {
  document_name: 'Nom du document',
  logo: 'Logo',
  icon: 'Icône',
  document_info: 'Informations du document',
  organization: 'Entreprise',
  customer: 'Client',
  shipping: 'Adresse de livraison',
  identifications: 'Identifiants légaux',
  additional_info: 'Informations complémentaires',
  text: 'Texte libre',
  document_number: 'Numéro du document',
  page_number: 'Numéro de page',
  separator: 'Séparateur',
  header_note: 'Texte d’en-tête',
  footer_note: 'Texte de pied de page',
};

export const TABLE_COLUMN_LABELS: Record<(typeof TABLE_COLUMN_TYPES)[number], string> = {
  position: 'Position',
  description: 'Désignation',
  quantity: 'Quantité',
  unit: 'Unité',
  quantity_unit: 'Quantité et unité',
  unit_price: 'Prix unitaire',
  vat: 'TVA',
  discount: 'Remise',
  total_price: 'Total',
};

export const DISPLAY_FLAG_LABELS = {
  document_number: 'Numéro',
  date: 'Date',
  maturity: 'Échéance / validité',
  customer_id: 'Numéro client',
  payment_method: 'Mode de paiement',
  total_document: 'Montant total',
} as const;

export const TOTALS_LABELS = {
  subtotal: 'Sous-total HT',
  discount: 'Remise',
  taxes: 'TVA par taux',
  shipping: 'Frais de port',
  total: 'Total TTC',
  deposits: 'Acomptes',
  paid: 'Déjà payé',
  due: 'Reste à payer',
} as const;

/** 'Marges › première page › haut', 'En-tête › ligne 1 › colonne 2 › élément 1 › taille': the labels on the template schema. */
export function templateFieldLabel(path: readonly PropertyKey[]): string {
  return fieldLabelAt(documentTemplateSchema, path) ?? '';
}

/** One message per offending field, naming it: 'Marges › première page › haut : 10 au plus' (the one formatter). */
export function templateIssueMessages(issues: readonly IssueDetail[]): string[] {
  return validationMessages(issues, documentTemplateSchema);
}
