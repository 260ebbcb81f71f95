// French names for the document template (SPEC §3): the designer's labels, and validation messages that say which
// field to fix, the same on the server (400 answers) and in the designer.
import type { DocumentType } from './schemas/document';
import { byType } from './document-types';
import type { TemplateElement } from './schemas/template';
import type { TABLE_COLUMN_TYPES } from './schemas/template';

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

const SEGMENTS: Record<string, string> = {
  numbering: 'Numérotation',
  customer_numbering: 'Numérotation des clients',
  prefix: 'préfixe',
  suffix: 'suffixe',
  digit_count: 'nombre de chiffres',
  separator: 'séparateur',
  texts: 'Textes prédéfinis',
  margins: 'Marges',
  first_page: 'première page',
  following_pages: 'pages suivantes',
  top: 'haut',
  bottom: 'bas',
  left: 'gauche',
  right: 'droite',
  font_family: 'Police',
  font_size: 'taille de police',
  line_height: 'Interligne',
  fold_line: 'Ligne de pliage',
  status: 'affichée',
  only_first_page: 'première page seulement',
  alignment: 'position',
  header: 'En-tête',
  elements_following_pages: 'Pages suivantes',
  footer: 'Pied de page',
  table: 'Tableau',
  totals: 'totaux',
  show_subtotal: 'sous-total en bas de page',
  show_subtotal_previous: 'report du sous-total',
  style: 'style',
  general: 'général',
  thead: 'en-tête du tableau',
  tbody: 'lignes',
  odd: 'impaires',
  even: 'paires',
  total: 'total',
  tfoot: 'pied du tableau',
  label: 'intitulé',
  visible: 'visible',
  elements: 'éléments',
  columns: 'colonnes',
  offset: 'décalage',
  text_align: 'alignement du texte',
  align: 'alignement',
  justify: 'répartition',
  content: 'texte',
  url: 'adresse de l’image',
  size: 'taille',
  layout: 'disposition',
  display: 'affichage',
  name: 'nom',
  color: 'couleur',
  el_width: 'longueur',
  border_style: 'style de bordure',
  border_collapse: 'fusion des bordures',
  border_spacing: 'espacement des bordures',
  margin: 'marge extérieure',
  padding: 'marge intérieure',
  border_top: 'bordure haute',
  border_right: 'bordure droite',
  border_bottom: 'bordure basse',
  border_left: 'bordure gauche',
  vertical_align: 'alignement vertical',
  background_color: 'couleur de fond',
  text_transform: 'casse',
  font_weight: 'graisse',
  font_style: 'style de police',
  type: 'type',
  show_item: 'nom de l’article',
  show_sku: 'référence',
};

/** 'Marges › première page › haut', 'En-tête › ligne 1 › colonne 2 › élément 1 › taille'. */
export function templateFieldLabel(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (const [i, raw] of path.entries()) {
    const segment = String(raw);
    const parent = i > 0 ? String(path[i - 1]) : '';
    if (/^\d+$/.test(segment)) {
      const n = Number(segment) + 1;
      if (parent === 'columns' || parent === 'cols') parts.push(`colonne ${n}`);
      else if (parent === 'elements') parts.push(`élément ${n}`);
      else parts.push(`ligne ${n}`);
      continue;
    }
    const next = i + 1 < path.length ? String(path[i + 1]) : '';
    // 'colonne 2' says it already: no 'colonnes › colonne 2'.
    if ((segment === 'columns' || segment === 'elements' || segment === 'cols') && /^\d+$/.test(next)) continue;
    if (parent === 'texts' || parent === 'numbering') {
      parts.push(TEMPLATE_TYPE_LABELS[segment as DocumentType] ?? segment);
      continue;
    }
    if (segment === 'cols') {
      parts.push(parent === 'table' ? 'colonnes' : 'largeur (sur 12)');
      continue;
    }
    if (segment === 'width') {
      parts.push(path.includes('cols') && !/^border_/.test(parent) ? 'largeur (%)' : 'épaisseur');
      continue;
    }
    if (path[0] === 'texts' && i === 2) {
      parts.push(segment === 'header' ? 'en-tête' : 'pied de page');
      continue;
    }
    parts.push(SEGMENTS[segment] ?? segment);
  }
  const text = parts.join(' › ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface IssueLike {
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  maximum?: unknown;
  minimum?: unknown;
  origin?: string;
  expected?: string;
}

/** What is wrong, in plain French, without the field's name (the designer shows it beside the field). */
export function templateIssueText(issue: IssueLike): string {
  const unit = issue.origin === 'string' ? ' caractères' : issue.origin === 'array' ? ' au plus' : '';
  if (issue.code === 'too_big')
    return issue.origin === 'array' ? `${String(issue.maximum)} au plus` : `${String(issue.maximum)}${unit} au plus`;
  if (issue.code === 'too_small')
    return issue.origin === 'array' ? `${String(issue.minimum)} au moins` : `${String(issue.minimum)}${unit} au moins`;
  if (issue.code === 'invalid_type')
    return issue.expected === 'int'
      ? 'Un nombre entier est attendu'
      : issue.expected === 'number'
        ? 'Un nombre est attendu'
        : 'Valeur manquante ou invalide';
  if (issue.code === 'invalid_value' || issue.code === 'invalid_union') return 'Valeur non reconnue';
  return issue.message; // our own messages (e.g. the colour format) are already French and specific
}

/** One message per offending field, naming it: 'Marges › première page › haut : 10 au plus'. */
export function templateIssueMessages(issues: readonly IssueLike[], prefix: readonly PropertyKey[] = []): string[] {
  const messages = issues.map((issue) => {
    const path = issue.path.slice(prefix.length);
    return path.length ? `${templateFieldLabel(path)} : ${templateIssueText(issue)}` : templateIssueText(issue);
  });
  return [...new Set(messages)];
}
