// The usual legal bases of an invoice line without VAT (CGI art. 242 nonies A, 13°: the invoice names the provision
// that exempts it). One list for the editor's choice and for the mentions the cross-border rule prints by itself.

export interface VatExemptionBasis {
  id: 'services_outside_france' | 'services_eu' | 'export' | 'intra_eu_goods' | 'training';
  /** What the editor's list shows. */
  label: string;
  /** What the document prints (its "Exonération de TVA" field). */
  text: string;
}

export const VAT_EXEMPTION_BASES: readonly VatExemptionBasis[] = [
  {
    id: 'services_outside_france',
    label: 'Services à une entreprise établie hors de France (art. 259-1 du CGI, autoliquidation)',
    text: 'Autoliquidation : TVA due par le preneur établi hors de France (art. 259-1 du CGI)',
  },
  {
    id: 'services_eu',
    label: 'Services à une entreprise d’un autre État de l’UE (art. 283-2 du CGI, autoliquidation)',
    text: 'Autoliquidation : TVA due par le preneur (art. 283-2 du CGI, art. 196 de la directive 2006/112/CE)',
  },
  {
    id: 'export',
    label: 'Exportation de biens hors de l’UE (art. 262 I du CGI)',
    text: 'Exonération de TVA, art. 262 I du CGI (exportation hors de l’Union européenne)',
  },
  {
    id: 'intra_eu_goods',
    label: 'Livraison intracommunautaire de biens (art. 262 ter I du CGI)',
    text: 'Exonération de TVA, art. 262 ter I du CGI (livraison intracommunautaire)',
  },
  {
    id: 'training',
    label: 'Formation professionnelle continue (art. 261-4-4° du CGI)',
    text: 'Exonération de TVA, art. 261-4-4° du CGI (formation professionnelle continue)',
  },
];

export const exemptionText = (id: VatExemptionBasis['id']): string => VAT_EXEMPTION_BASES.find((b) => b.id === id)?.text ?? '';

/** The basis a document's text was chosen from, 'other' for free text, '' when empty. */
export function exemptionChoice(text: string): VatExemptionBasis['id'] | 'other' | '' {
  const trimmed = text.trim();
  if (!trimmed) return '';
  return VAT_EXEMPTION_BASES.find((b) => b.text === trimmed)?.id ?? 'other';
}
