import type { Address } from '../../shared/schemas/customer';
import type { DocumentType, KeyValue } from '../../shared/schemas/document';
import type { TaxGroup } from '../../shared/totals';

/**
 * A document as the renderer draws it, whatever it comes from: a saved record, the editor's unsaved form, or the
 * sample of /preview and the template designer. Amounts are already computed (shared totals), in major units.
 */
export interface RenderSeller {
  name: string;
  legal_form: string;
  address: Address;
  email: string;
  phone: string;
  mobile: string;
  web: string;
  /** Organisation key/value lists: identifications (SIRET…), additional_info (IBAN…). */
  identifications: KeyValue[];
  additional_info: KeyValue[];
  /** The legal identity line: name and form, capital, SIREN/SIRET, RCS, VAT number (shared/legal-mentions). */
  identity: string[];
  logo_url: string | null;
}

export interface RenderCustomer {
  name: string;
  legal_name: string;
  /** The customer number ('CL-00012'), shown by document_info's customer_id flag. */
  number: string;
  type: 'company' | 'individual';
  business_id: string;
  vat_number: string;
  email: string;
  address: Address;
  /** The document's delivery address (blank: the billing address); printed when it differs from `address`. */
  shipping: Address;
}

export interface RenderLine {
  position: number;
  code: string;
  sku: string;
  item: string;
  description: string;
  quantity: number;
  unit: string;
  /** Unit price excluding tax (derived from the typed TTC price in TTC mode). */
  price: number;
  discount_type: 'percent' | 'amount';
  discount_value: number;
  /** Line discount amount, excluding tax. */
  discount: number;
  taxes: { title: string; rate: number }[];
  /** Line net amount excluding tax (EN 16931 BT-131). */
  total: number;
}

export interface RenderTotals {
  subtotal: number;
  discount: number;
  /** The document discount as typed, for its label ('Remise 5 %'). */
  discount_type: 'percent' | 'amount' | null;
  discount_value: number;
  taxes: TaxGroup[];
  tax: number;
  shipping: number;
  total: number;
  /** Deposit invoices deducted from this invoice, each by number (CGI art. 289). */
  deposit_invoices: { number: string | null; date: string; total: number }[];
  credited: number;
  paid: number;
  /** What is left to pay, after deposits, credit notes and payments. */
  amount_due: number;
}

/** How to pay by transfer (the payment block): the account, and for an issued invoice its reference and QR code. */
export interface RenderTransfer {
  /** The seller's bank account (frozen at issue), IBAN and BIC compact; null when it has none. */
  account: { holder: string; iban: string; bic: string } | null;
  /** ISO 11649, compact ('RF26FA20260001'); null but on an issued invoice. */
  reference: string | null;
  /** The EPC069-12 QR code the server drew (SVG data URL): on the public page and its PDF only. */
  qr: string | null;
}

/**
 * The VAT of a document in a foreign currency, in the accounting currency (directive 2006/112/CE art. 230), at the rate
 * kept at issue: the figures the e-invoice declares and the FEC books.
 */
export interface RenderVatInBase {
  currency: string;
  /** Units of the document's currency per unit of the accounting currency. */
  rate: string;
  taxes: { rate: number; amount: number }[];
  total: number;
}

export interface RenderDocument {
  type: DocumentType;
  kind: 'standard' | 'deposit';
  /** null while a draft: numbered at issue. */
  number: string | null;
  date: string;
  maturity: string | null;
  /** The sale or service date when it differs from the issue date. */
  sale_date: string | null;
  currency: string;
  condition: string;
  header: string;
  footer: string;
  terms: string;
  note: string;
  shipping_details: string;
  /** The customer's purchase-order number, '' when none (C. com. L441-9). */
  purchase_order: string;
  additional_info: KeyValue[];
  deposit_request: { description: string; amount: number }[];
  seller: RenderSeller | null;
  customer: RenderCustomer | null;
  lines: RenderLine[];
  totals: RenderTotals;
  /** The mentions the law asks for (set at issue; computed for drafts and the sample). */
  legal_mentions: string[];
  /**
   * Whether the document speaks of VAT: false under the franchise en base (CGI art. 293 B), where it shows no VAT
   * column, no VAT rows and no HT/TTC wording, only the mention "TVA non applicable, art. 293 B du CGI".
   */
  vat: boolean;
  /** null when the document is in the accounting currency, is not issued yet, or states no VAT. */
  vat_in_base: RenderVatInBase | null;
  transfer: RenderTransfer | null;
}
