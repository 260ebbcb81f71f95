import type { DocumentTemplate, TemplateElement } from './schemas/template';

type TemplateColumnType = DocumentTemplate['table']['cols'][number]['type'];

/** One mandatory part of an invoice or credit note, and whether a template keeps it. */
interface MandatoryPart {
  key: string;
  /** What the template must keep, as the sentence names it. */
  what: string;
  kept(template: DocumentTemplate): boolean;
}

/** The elements of the first page (header and footer rows); following pages repeat only the number. */
function firstPageElements(template: DocumentTemplate): TemplateElement[] {
  return [...template.header, ...template.footer].flatMap((row) => row.columns.flatMap((column) => column.elements));
}

const hasElement = (template: DocumentTemplate, type: TemplateElement['type']) => firstPageElements(template).some((e) => e.type === type);

/** The document_info blocks that show a given entry. */
const infoShows = (template: DocumentTemplate, flag: 'document_number' | 'date' | 'maturity') =>
  firstPageElements(template).some((e) => e.type === 'document_info' && e.display[flag]);

const showsColumn = (template: DocumentTemplate, ...types: TemplateColumnType[]) =>
  template.table.cols.some((c) => c.visible && types.includes(c.type));

/**
 * CGI art. 242 nonies A (annexe II) and C. com. L441-9: the mentions every invoice and credit note carries. The
 * legal mentions themselves (penalties, indemnity, exemptions) are printed by the renderer whatever the template.
 */
const MANDATORY_PARTS: readonly MandatoryPart[] = [
  { key: 'seller', what: 'le bloc de l’entreprise', kept: (t) => hasElement(t, 'organization') },
  { key: 'customer', what: 'le bloc du client', kept: (t) => hasElement(t, 'customer') },
  {
    key: 'number',
    what: 'le numéro du document',
    kept: (t) => hasElement(t, 'document_number') || infoShows(t, 'document_number'),
  },
  { key: 'date', what: 'la date du document', kept: (t) => infoShows(t, 'date') },
  { key: 'maturity', what: 'la date d’échéance', kept: (t) => infoShows(t, 'maturity') },
  { key: 'description', what: 'la colonne de désignation', kept: (t) => showsColumn(t, 'description') },
  { key: 'quantity', what: 'la colonne de quantité', kept: (t) => showsColumn(t, 'quantity', 'quantity_unit') },
  { key: 'unit_price', what: 'la colonne du prix unitaire', kept: (t) => showsColumn(t, 'unit_price') },
  { key: 'vat', what: 'la colonne de TVA', kept: (t) => showsColumn(t, 'vat') },
  { key: 'taxes', what: 'le montant de TVA par taux', kept: (t) => t.table.totals.taxes },
  { key: 'subtotal', what: 'le total HT', kept: (t) => t.table.totals.subtotal },
  { key: 'total', what: 'le total TTC', kept: (t) => t.table.totals.total },
];

export interface MissingMandatoryPart {
  key: string;
  message: string;
}

/**
 * What a template would drop from invoices and credit notes, one French sentence each; empty when it keeps every
 * mandatory part. The server refuses to save such a template, the designer warns before saving.
 */
export function missingMandatoryParts(template: DocumentTemplate): MissingMandatoryPart[] {
  return MANDATORY_PARTS.filter((part) => !part.kept(template)).map((part) => ({
    key: part.key,
    message: `Le modèle doit garder ${part.what} (mention obligatoire sur les factures)`,
  }));
}
