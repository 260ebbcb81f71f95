import type { Role } from '../../shared/roles';
import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Kysely's view of the tables. Timestamps are ISO 8601 UTC strings, which sort and compare
 * the same on SQLite and PostgreSQL; booleans are not used in storage for the same reason.
 */
export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  /** Stored lower-cased: one account per address whatever the case typed. */
  email: string;
  password_hash: string;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export type MembershipRole = Role;

export interface MembershipsTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number;
  role: MembershipRole;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token, hex: the token itself is never stored. */
  id: string;
  user_id: number;
  organization_id: number;
  expires_at: string;
  created_at: string;
  /** The browser's User-Agent at login ('' before migration 0032). */
  user_agent: Generated<string>;
  ip: Generated<string>;
  last_seen_at: string | null;
}

/** An invitation to join an organisation: only the SHA-256 of the mailed token is kept. */
export interface InvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  role: MembershipRole;
  token_hash: string;
  invited_by: number | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** Migration 0034: an organisation's API key; only the secret's SHA-256 is kept. */
export interface ApiKeysTable {
  id: Generated<number>;
  organization_id: number;
  created_by: number;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  secret_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Migration 0054: the `webhooks` scope: the key may manage the organisation's webhooks too. */
  webhooks: Generated<number>;
}

export type EmailTokenKind = 'verify' | 'reset';

export interface EmailTokensTable {
  /** SHA-256 of the mailed token, hex. */
  id: string;
  user_id: number;
  kind: EmailTokenKind;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SettingsTable {
  organization_id: number;
  key: string;
  /** JSON, validated by the shared Zod schema of its key on every read and write. */
  value: string;
  updated_at: string;
}

export interface FeedbackTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  message: string;
  screenshot: string | null;
  created_at: string;
}

export interface CountersTable {
  organization_id: number;
  name: string;
  value: number;
}

export interface TaxesTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  rate: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface UnitsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  position: number;
  created_at: string;
}

export interface CustomersTable {
  id: Generated<number>;
  organization_id: number;
  number: string;
  type: 'company' | 'individual';
  name: string;
  legal_name: string;
  email: string;
  phone: string;
  mobile: string;
  web: string;
  business_id: string;
  vat_number: string;
  address: string;
  address_city: string;
  shipping: string;
  contacts: string;
  language: string;
  currency: string;
  maturity: number;
  note: string;
  description: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Migration 0051: what the platform's directory answered for the SIREN ('unknown' until looked up). */
  directory_status: Generated<'unknown' | 'listed' | 'absent'>;
  electronic_address: Generated<string>;
  routing_code: Generated<string>;
  directory_checked_at: string | null;
}

/** Migration 0051: one Flux 10 e-reporting report as written, per period, kind and version (0064: `purchases`). */
export interface EreportingReportsTable {
  id: Generated<number>;
  organization_id: number;
  period: string;
  kind: 'transactions' | 'payments' | 'international' | 'purchases';
  version: number;
  type_code: 'IN' | 'RE';
  tracking_id: string;
  xml: string;
  amount: number;
  state: 'invalid' | 'sent' | 'failed';
  flow_id: string | null;
  ack_status: string | null;
  errors: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ItemsTable {
  id: Generated<number>;
  organization_id: number;
  code: string;
  sku: string;
  name: string;
  description: string;
  unit: string;
  unit_price: string;
  kind: 'goods' | 'service';
  active: number;
  tax_ids: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface TagsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** The name in Unicode lower case: unique per organisation, whatever the case typed. */
  name_key: string;
  color: string;
  for_customers: number;
  for_items: number;
  for_documents: number;
  created_at: string;
  updated_at: string;
}

export interface TaggingsTable {
  organization_id: number;
  tag_id: number;
  kind: 'customer' | 'item' | 'document';
  ref_id: number;
}

/** Amounts in INTEGER ten-thousandths (scale 4), decimal inputs as text: see migration 0007. */
export interface DocumentsTable {
  id: Generated<number>;
  organization_id: number;
  type: 'invoice' | 'estimate' | 'proforma' | 'order' | 'delivery' | 'credit';
  kind: 'standard' | 'deposit';
  status: string;
  number: string | null;
  counter: number | null;
  uuid: string;
  date: string;
  maturity: string | null;
  sale_date: string | null;
  condition: string;
  header: string;
  footer: string;
  terms: string;
  note: string;
  discount_type: string | null;
  discount_value: string | null;
  shipping_fee: string;
  /** The VAT rate applied to shipping (JSON { title, rate }, migration 0014); null: none. */
  shipping_tax: string | null;
  /** 1 when the shipping rate follows the main rate of the lines (migration 0014). */
  shipping_tax_auto: Generated<number>;
  shipping_details: string;
  vat_exemption: string;
  additional_info: string;
  deposit_request: string;
  customer_id: number | null;
  customer_name: string;
  order_id: number | null;
  /** The customer's purchase-order number, '' when none (migration 0015). */
  purchase_order: Generated<string>;
  /** The document's own delivery address (JSON), null when it is the billing address (migration 0015). */
  delivery_address: string | null;
  currency: string;
  price_mode: string;
  origin_id: number | null;
  corrects_id: number | null;
  deducted_by_id: number | null;
  seller_snapshot: string | null;
  customer_snapshot: string | null;
  legal_mentions: string;
  /** The template in force at issue (JSON, migration 0012); null for drafts and documents issued before it. */
  template_snapshot: string | null;
  /** The kept PDF of an issued invoice or credit note (migration 0013): relative to the data directory; null until rendered. */
  pdf_path: string | null;
  pdf_sha256: string | null;
  pdf_size: number | null;
  tax_groups: string;
  subtotal: number;
  discount: number;
  tax: number;
  shipping: number;
  total: number;
  deposits: number;
  paid: number;
  amount_due: number;
  /** Migration 0029: units of `currency` per unit of the base currency on the day of issue; null while a draft. */
  exchange_rate: string | null;
  /** Migration 0030, written with the content: HT of the goods lines and of all lines (scale 4); 1 with a service line. */
  goods_net: Generated<number>;
  lines_net: Generated<number>;
  has_services: Generated<number>;
  issued_at: string | null;
  sent_at: string | null;
  viewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentItemsTable {
  id: Generated<number>;
  document_id: number;
  position: number;
  code: string;
  sku: string;
  item: string;
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  discount_type: string;
  discount_value: string;
  /** JSON: the tax lines [{ title, rate }]; parsed in queries/document-mapping.ts only. */
  taxes: string;
  kind: string;
  /** JSON: the line's amounts computed at the last write (migration 0008); parsed in queries/document-mapping.ts only. */
  amounts: string | null;
  /** Migration 0038: the line's HT after its own discount (`amounts.gross_total`) in stored units, for the by-item report. */
  net: Generated<number>;
}

export interface PaymentsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  date: string;
  amount: number;
  method: string;
  reference: string;
  note: string;
  /** On a counter-entry: the payment it cancels (migration 0010); its amount is the opposite of that payment's. */
  reverses_id: number | null;
  /** Migration 0050: what the payment processor kept on it (a card payment's Stripe fee), in stored units of `fee_currency`. */
  fee: Generated<number>;
  fee_currency: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Migration 0038: one row per tax group of an issued invoice or credit note (its `tax_groups` as rows), written when
 * it is issued and never changed, for the VAT aggregates; base and amount in stored units (scale 4), as on the document.
 */
export interface DocumentTaxesTable {
  document_id: number;
  position: number;
  organization_id: number;
  date: string;
  type: 'invoice' | 'credit';
  has_services: number;
  currency: string;
  exchange_rate: string | null;
  /** The VAT rate in percent, as the tax group's JSON number ('20', '5.5'). */
  rate: string;
  base: number;
  amount: number;
}

/** Issued invoices and credit notes per day and kind, kept by triggers (migration 0066, db/queries/summaries.ts). */
export interface SummaryDocumentDaysTable {
  organization_id: number;
  date: string;
  type: 'invoice' | 'credit';
  kind: 'standard' | 'deposit';
  currency: string;
  /** '' for a document without a rate of issue. */
  exchange_rate: string;
  /** 1 for credit notes of deposit invoices. */
  deposit_credit: number;
  count: number;
  /** subtotal − discount, stored units; unsigned (a credit note's is positive). */
  ht: number;
  tax: number;
  total: number;
  deposits: number;
}

/** Unpaid and partly paid invoices per maturity and customer, kept by triggers (migration 0066). */
export interface SummaryReceivablesTable {
  organization_id: number;
  /** '' for none. */
  maturity: string;
  /** 0 for a document without a customer. */
  customer_key: number;
  currency: string;
  exchange_rate: string;
  count: number;
  amount_due: number;
  customer_name: string;
}

/** Unpaid and partly paid invoices per maturity alone (migration 0066). */
export interface SummaryReceivableDaysTable {
  organization_id: number;
  maturity: string;
  currency: string;
  exchange_rate: string;
  count: number;
  amount_due: number;
}

/** Unpaid and partly paid invoices per customer alone (migration 0066). */
export interface SummaryReceivableCustomersTable {
  organization_id: number;
  customer_key: number;
  currency: string;
  exchange_rate: string;
  count: number;
  amount_due: number;
}

/** Every document per type and status, kept by triggers (migration 0066). */
export interface SummaryDocumentCountsTable {
  organization_id: number;
  type: string;
  status: string;
  count: number;
  sent: number;
}

/** Turnover per organisation, month, customer (0: none), currency and rate of issue ('': none) (migration 0074). */
export interface SummaryCustomerMonthsTable {
  organization_id: number;
  /** '2026-03'. */
  month: string;
  customer_key: number;
  currency: string;
  exchange_rate: string;
  count: number;
  /** HT (TTC less VAT) in stored units, credit notes negative. */
  net: number;
  /** The greatest name on these documents. */
  customer_name: string;
}

/** Turnover per organisation, month, trimmed line designation, currency and rate (migration 0074). */
export interface SummaryItemMonthsTable {
  organization_id: number;
  month: string;
  name: string;
  currency: string;
  exchange_rate: string;
  /** Documents with a line of this designation (each once). */
  count: number;
  /** Those lines' HT in stored units, credit notes negative. */
  net: number;
}

/**
 * Payments per organisation, month, currency and rate of issue of their document, and part (migration 0075): 0 on a
 * document of services only, -1 of goods only, else the payment's id (a mixed document's payment, alone in its row).
 */
export interface SummaryPaymentMonthsTable {
  organization_id: number;
  month: string;
  currency: string;
  exchange_rate: string;
  part: number;
  count: number;
  /** The payments' amount in stored units. */
  amount: number;
  /** A mixed document's goods and lines HT (stored units); 0 on the other parts. */
  goods: number;
  lines: number;
}

/**
 * The invoices a reminder may concern per organisation, due date and last step done (migration 0077): the latest step
 * of a reminder sent or being sent, -1,000,000 (below any step) when none.
 */
export interface SummaryReminderDaysTable {
  organization_id: number;
  maturity: string;
  last_step: number;
  count: number;
}

/** An invoice a reminder may concern that has an address to send it to (migration 0080). */
export interface SummaryReminderAddressesTable {
  organization_id: number;
  maturity: string;
  document_id: number;
}

/** A movement of the cumulative VAT of one sale or expense at one date (migration 0069, db/queries/vat-ledger.ts). */
export interface VatLedgerTable {
  organization_id: number;
  /** What is recomputed together: 'sale' (an invoice with its credit notes, or a credit note on no invoice), 'expense'. */
  owner: 'sale' | 'expense';
  owner_id: number;
  source: 'invoice' | 'credit' | 'expense';
  /** The document or expense the operation is: the owner, or one of its credit notes. */
  item_id: number;
  date: string;
  line: string;
  nature: 'goods' | 'services' | null;
  rate: number;
  /** 'goods' or 'services' for VAT self-assessed on a purchase, '' otherwise. */
  reverse_charge: string;
  /** Stored units (10^-4) of the base currency. */
  base: number;
  tax: number;
}

/** The ledger summed per organisation, day, line, rate and reverse charge (migration 0069). */
export interface VatLedgerDaysTable {
  organization_id: number;
  date: string;
  line: string;
  rate: number;
  reverse_charge: string;
  rows: number;
  base: number;
  tax: number;
}

/** Owners whose ledger rows a write made stale, marked by triggers (migration 0069); 'organization' (id 0): all of them. */
export interface VatLedgerDirtyTable {
  organization_id: number;
  owner: 'sale' | 'expense' | 'organization';
  id: number;
}

/** Append-only, hash-chained log of legal events, one chain per organisation (migration 0010, services/audit.ts). */
export interface AuditLogTable {
  id: Generated<number>;
  organization_id: number;
  sequence: number;
  event: string;
  content: string;
  content_hash: string;
  previous_hash: string;
  hash: string;
  created_at: string;
}

/**
 * Signed closings of the audit log, numbered per organisation (migration 0055, services/audit-closings.ts); append-only
 * but for the one signature of a 'legacy' seal. `payload` is the JSON text signed.
 */
export interface AuditClosingsTable {
  id: Generated<number>;
  organization_id: number;
  number: number;
  period: string;
  period_start: string;
  last_sequence: number;
  payload: string;
  signature: string;
  created_at: string;
}

/** Lifecycle statuses of the e-invoicing reform (migration 0019, services/einvoice-lifecycle.ts); append-only. */
export interface EinvoiceStatusesTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  status: string;
  code: number | null;
  date: string;
  reason: Generated<string>;
  source: string;
  /** On an Encaissée: scale-4 units, like every stored amount. */
  amount: number | null;
  platform_update_id: string | null;
  user_id: number | null;
  created_at: string;
}

/** The one transmission of a document to the approved platform (migration 0019). */
export interface EinvoiceSubmissionsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  platform: string;
  reference: string;
  format: string;
  xml_attached: number;
  sent_at: string;
}

/**
 * Migration 0045: an invoice or credit note's submission to the platform's Flow Service (services/einvoice-outbox.ts),
 * its attempts, the flow id and the acknowledgement. `reasons` is the platform's reason codes as JSON.
 */
export interface EinvoiceFlowsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  tracking_id: string;
  state: string;
  syntax: Generated<string>;
  profile: Generated<string>;
  attempts: Generated<number>;
  polls: Generated<number>;
  next_attempt_at: string | null;
  lease_until: string | null;
  lease_holder: string | null;
  uncertain: Generated<number>;
  flow_id: string | null;
  ack_status: string | null;
  reasons: Generated<string>;
  last_error: Generated<string>;
  last_request_id: string | null;
  last_attempt_at: string | null;
  submitted_at: string | null;
  acknowledged_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0046: where an organisation's search of incoming flows stands (services/einvoice-inbox.ts). */
export interface EinvoiceInboxTable {
  organization_id: number;
  /** The platform's updatedAt up to which every incoming flow was handled (ISO instant); null before the first one. */
  updated_after: string | null;
  lease_holder: string | null;
  lease_until: string | null;
  last_sync_at: string | null;
  last_error: Generated<string>;
  updated_at: string;
}

/** Migration 0046: an incoming flow handled once, with what became of it (an expense, a status, or why not). */
export interface EinvoiceReceivedFlowsTable {
  id: Generated<number>;
  organization_id: number;
  flow_id: string;
  flow_type: string;
  name: Generated<string>;
  state: string;
  reason: Generated<string>;
  expense_id: number | null;
  document_id: number | null;
  status_code: number | null;
  flow_updated_at: string;
  received_at: string;
}

/**
 * Migration 0047: a lifecycle message (CDAR) to send to the platform, worked through by the outbox with the same
 * columns as an invoice's submission (EinvoiceFlowsTable); `xml` is the message as written.
 */
export interface EinvoiceStatusFlowsTable {
  id: Generated<number>;
  organization_id: number;
  tracking_id: string;
  expense_id: number | null;
  document_id: number | null;
  status_entry_id: number | null;
  status_code: number;
  reason_code: Generated<string>;
  name: string;
  xml: string;
  state: string;
  attempts: Generated<number>;
  polls: Generated<number>;
  next_attempt_at: string | null;
  lease_until: string | null;
  lease_holder: string | null;
  uncertain: Generated<number>;
  flow_id: string | null;
  ack_status: string | null;
  reasons: Generated<string>;
  last_error: Generated<string>;
  last_request_id: string | null;
  last_attempt_at: string | null;
  submitted_at: string | null;
  acknowledged_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0009: the first answer to a POST sent with an Idempotency-Key (src/server/http/idempotency.ts). */
export interface IdempotencyKeysTable {
  organization_id: number;
  user_id: number;
  key: string;
  procedure: string;
  request_hash: string;
  /** Null while the first request is still running. */
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface CurrenciesTable {
  id: Generated<number>;
  organization_id: number;
  /** ISO 4217 code from the shared catalogue. */
  code: string;
  /** Units of this currency for 1 unit of the base currency, an exact decimal as text ('1.085'). */
  rate: string;
  /** The day the rate was quoted, YYYY-MM-DD. */
  rate_date: string;
  created_at: string;
  updated_at: string;
}

/** Migration 0020: an organisation's expense categories, each booked to a plan comptable account. */
export interface ExpenseCategoriesTable {
  id: Generated<number>;
  organization_id: number;
  code: string;
  label: string;
  account: string;
  position: number;
  /** Migration 0025: 1 once archived (kept for the expenses that use it, out of the pickers). */
  archived: Generated<number>;
}

/** Migration 0020: an expense. Amounts in units of 10^-4; `vat` is JSON `[{ rate, amount, deductible }]` (amounts in units). */
export interface ExpensesTable {
  id: Generated<number>;
  organization_id: number;
  date: string;
  supplier: string;
  supplier_siren: string;
  supplier_vat_number: string;
  category: string;
  label: string;
  amount: number;
  vat: string;
  vat_total: number;
  deductible_vat: number;
  currency: string;
  payment_method: string;
  status: string;
  paid_at: string | null;
  due_date: string | null;
  invoice_number: string;
  note: string;
  tags: string;
  /** Relative to the data directory; the type is the one read from the file's bytes. */
  receipt_path: string | null;
  receipt_name: string | null;
  receipt_type: string | null;
  receipt_size: number | null;
  source: string;
  /** SHA-256 of an imported e-invoice file (unique per organisation). */
  source_sha256: string | null;
  recurring_id: number | null;
  /** The occurrence a recurring expense generated (unique with recurring_id). */
  occurrence_date: string | null;
  /** Migration 0033: 'expense' or 'credit_note' (an « avoir fournisseur », its amounts stored negative). */
  kind: Generated<string>;
  /** Migration 0033: the number of the invoice a credit note corrects, as written (BT-25). */
  preceding_invoice_number: Generated<string>;
  /** Migration 0033: that invoice among the organisation's expenses, when found. */
  corrects_id: number | null;
  /** Migration 0033: 1 while an imported expense's category is not confirmed by the user. */
  category_to_check: Generated<number>;
  /** Migration 0049: '' none, 'goods' or 'services': VAT self-assessed by the buyer, held in `vat`, none in `vat_total`. */
  reverse_charge: Generated<string>;
  /** Migration 0053: the supplier's country (ISO alpha-2, '' unknown): VAT of another country is not deductible here. */
  supplier_country: Generated<string>;
  /** Migration 0053: what the invoice says was already paid (BT-113), stored units. */
  prepaid_amount: Generated<number>;
  /** Migration 0053: the invoice's payment terms as written (BT-20). */
  payment_terms: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Migration 0021: a recurring expense; `paused` is 0 or 1. */
export interface RecurringExpensesTable {
  id: Generated<number>;
  organization_id: number;
  supplier: string;
  category: string;
  label: string;
  amount: number;
  vat: string;
  currency: string;
  payment_method: string;
  note: string;
  frequency: string;
  start_date: string;
  end_date: string | null;
  paused: number;
  generated_until: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0021: one scheduled job, its lease and its last run. */
export interface SchedulerJobsTable {
  name: string;
  lease_holder: string | null;
  lease_until: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_status: string | null;
  last_message: string | null;
}

/** Migration 0024: an estimate accepted or refused on its public page, with who, when and from where. */
export interface QuoteResponsesTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  decision: 'accepted' | 'refused';
  /** The signer's name ('' for a refusal, which asks none). */
  name: string;
  /** Why it was refused ('' for an acceptance). */
  reason: string;
  ip: string;
  user_agent: string;
  created_at: string;
}

/** Migration 0026: one payment reminder of an invoice, per step (days from its due date); never two of a step. */
export interface PaymentRemindersTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  step: number;
  status: 'sending' | 'sent' | 'failed';
  trigger: 'automatic' | 'manual';
  recipients: Generated<string>;
  subject: Generated<string>;
  /** Why the last attempt failed ('' once sent). */
  error: Generated<string>;
  attempts: Generated<number>;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0027: a recurring invoice's model (`model`: the form as JSON) and schedule; `paused`, `month_end` 0 or 1. */
export interface RecurringInvoicesTable {
  id: Generated<number>;
  organization_id: number;
  customer_id: number;
  model: string;
  /** The model's total TTC in stored units, for the list. */
  total: number;
  frequency: string;
  interval: number;
  month_end: number;
  start_date: string;
  end_date: string | null;
  occurrences: number | null;
  mode: string;
  paused: number;
  generated_until: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0027: one occurrence of a recurring invoice made, unique per (recurring_id, occurrence_date). */
export interface RecurringInvoiceRunsTable {
  id: Generated<number>;
  organization_id: number;
  recurring_id: number;
  occurrence_date: string;
  document_id: number | null;
  status: 'draft' | 'issued' | 'sent';
  error: string;
  created_at: string;
}

/** Migration 0028: an appointment; times are Paris wall-clock 'HH:MM[:SS]', null when all day. */
export interface AppointmentsTable {
  id: Generated<number>;
  organization_id: number;
  /** Who made it: the one reminded. */
  user_id: number | null;
  title: string;
  date: string;
  all_day: number;
  start: string | null;
  end: string | null;
  customer_id: number | null;
  location: string;
  note: string;
  status: string;
  reminder_minutes: number | null;
  billed_document_id: number | null;
  /** The iCalendar UID, stable across edits; `sequence` counts them for calendars that update in place. */
  uid: string;
  sequence: number;
  created_at: string;
  updated_at: string;
}

/** Migration 0028: a user's private calendar feed, known by the SHA-256 of its token. */
export interface CalendarFeedsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  token_hash: string;
  created_at: string;
}

/** Migration 0028: a reminder sent, once per appointment and start moment. */
export interface AppointmentRemindersTable {
  id: Generated<number>;
  appointment_id: number;
  starts_at: string;
  sent_at: string;
}

/** An organisation's plan; no row = the free plan. */
export interface SubscriptionsTable {
  organization_id: number;
  plan: 'free' | 'solo' | 'team';
  period: 'month' | 'year' | null;
  status: 'active' | 'past_due' | 'canceled';
  source: 'local' | 'operator' | 'stripe';
  current_period_end: string | null;
  cancel_at_period_end: number;
  pending_plan: 'free' | 'solo' | 'team' | null;
  pending_period: 'month' | 'year' | null;
  /** Migration 0039: when the pending change was asked for, and the day it applies at the latest (or null). */
  pending_since: string | null;
  pending_deadline: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  updated_at: string;
}

export interface SubscriptionInvoicesTable {
  id: Generated<number>;
  organization_id: number;
  external_id: string;
  number: string;
  date: string;
  plan: 'free' | 'solo' | 'team';
  period: 'month' | 'year';
  amount_net: number;
  amount_vat: number;
  amount_total: number;
  currency: string;
  status: 'paid' | 'open' | 'failed';
  pdf_url: string | null;
  created_at: string;
}

/** A payment provider's event applied once (webhooks are delivered at least once). */
export interface PaymentEventsTable {
  id: string;
  type: string;
  organization_id: number | null;
  received_at: string;
}

/** Migration 0062: a sender address of an organisation, confirmed by a mailed link before mail goes out from it. */
export interface SenderAddressesTable {
  id: Generated<number>;
  organization_id: number;
  /** Lower case. */
  address: string;
  /** SHA-256 of the mailed token, hex; kept after confirmation so that a second click says it is done. */
  token_hash: string;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  invitations: InvitationsTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  feedback: FeedbackTable;
  counters: CountersTable;
  taxes: TaxesTable;
  units: UnitsTable;
  customers: CustomersTable;
  ereporting_reports: EreportingReportsTable;
  items: ItemsTable;
  currencies: CurrenciesTable;
  documents: DocumentsTable;
  document_items: DocumentItemsTable;
  payments: PaymentsTable;
  document_taxes: DocumentTaxesTable;
  summary_document_days: SummaryDocumentDaysTable;
  summary_receivables: SummaryReceivablesTable;
  summary_receivable_days: SummaryReceivableDaysTable;
  summary_receivable_customers: SummaryReceivableCustomersTable;
  summary_document_counts: SummaryDocumentCountsTable;
  summary_customer_months: SummaryCustomerMonthsTable;
  summary_item_months: SummaryItemMonthsTable;
  summary_payment_months: SummaryPaymentMonthsTable;
  summary_reminder_days: SummaryReminderDaysTable;
  summary_reminder_addresses: SummaryReminderAddressesTable;
  vat_ledger: VatLedgerTable;
  vat_ledger_days: VatLedgerDaysTable;
  vat_ledger_dirty: VatLedgerDirtyTable;
  audit_log: AuditLogTable;
  audit_closings: AuditClosingsTable;
  einvoice_statuses: EinvoiceStatusesTable;
  einvoice_submissions: EinvoiceSubmissionsTable;
  einvoice_flows: EinvoiceFlowsTable;
  einvoice_inbox: EinvoiceInboxTable;
  einvoice_received_flows: EinvoiceReceivedFlowsTable;
  einvoice_own_directory: EinvoiceOwnDirectoryTable;
  einvoice_status_flows: EinvoiceStatusFlowsTable;
  tags: TagsTable;
  taggings: TaggingsTable;
  idempotency_keys: IdempotencyKeysTable;
  expense_categories: ExpenseCategoriesTable;
  expenses: ExpensesTable;
  recurring_expenses: RecurringExpensesTable;
  scheduler_jobs: SchedulerJobsTable;
  quote_responses: QuoteResponsesTable;
  payment_reminders: PaymentRemindersTable;
  recurring_invoices: RecurringInvoicesTable;
  recurring_invoice_runs: RecurringInvoiceRunsTable;
  appointments: AppointmentsTable;
  calendar_feeds: CalendarFeedsTable;
  appointment_reminders: AppointmentRemindersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  subscriptions: SubscriptionsTable;
  subscription_invoices: SubscriptionInvoicesTable;
  payment_events: PaymentEventsTable;
  rate_limits: RateLimitsTable;
  einvoicing_settings: EinvoicingSettingsTable;
  bank_accounts: BankAccountsTable;
  bank_transactions: BankTransactionsTable;
  bank_matches: BankMatchesTable;
  online_payment_settings: OnlinePaymentSettingsTable;
  card_checkouts: CardCheckoutsTable;
  credit_allocations: CreditAllocationsTable;
  sender_addresses: SenderAddressesTable;
}

/** Migration 0050: an organisation's own Stripe keys; `secret_key` and `webhook_secret` sealed ('' = none). */
export interface OnlinePaymentSettingsTable {
  organization_id: number;
  publishable_key: string;
  secret_key: string;
  webhook_secret: string;
  updated_at: string;
}

/** Migration 0050: a Stripe Checkout Session opened for an invoice, and the one payment it recorded. */
export interface CardCheckoutsTable {
  id: Generated<number>;
  organization_id: number;
  document_id: number;
  session_id: string;
  url: string;
  /** What the session asks, in stored units (scale 4) of `currency`. */
  amount: number;
  currency: string;
  status: 'open' | 'paid' | 'refused';
  payment_id: number | null;
  payment_intent: string | null;
  event_id: string | null;
  problem: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Migration 0041: a shared fixed-window counter (auth/rate-limit.ts, PostgreSQL); times in epoch milliseconds. */
export interface RateLimitsTable {
  name: string;
  key: string;
  count: number;
  reset_at: number;
  last_at: number;
}

/** Migration 0035: an organisation's webhook endpoint; `events` a JSON array of event types, `enabled` 0 or 1. */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  organization_id: number;
  url: string;
  events: string;
  secret: string;
  enabled: Generated<number>;
  consecutive_failures: Generated<number>;
  /** Set when the endpoint was turned off by repeated failures (not by hand). */
  disabled_at: string | null;
  /** Migration 0054: the first failed attempt since the last 2xx (null while it answers). */
  failing_since: string | null;
  /** Migration 0054: the sequence number of the last event written for this endpoint. */
  last_sequence: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Migration 0035: the outbox, one row per event and endpoint; `body` is the exact JSON sent and signed. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  organization_id: number;
  endpoint_id: number;
  uuid: string;
  event_id: string;
  event_type: string;
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  response_ms: number | null;
  response_body: Generated<string>;
  error: Generated<string>;
  created_at: string;
  /** Migration 0054: when the retry schedule started (null = created_at). */
  schedule_from: string | null;
  /** Migration 0054: the endpoint's sequence number of the event (null for a ping). */
  sequence: number | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/** Migration 0063: the organisation's own directory line (its BT-34), read by its SIREN from the platform's directory. */
export interface EinvoiceOwnDirectoryTable {
  organization_id: number;
  status: string;
  siren: string;
  electronic_address: string;
  address_scheme: string;
  routing_code: string;
  checked_at: string | null;
  error: string;
}

/** Migration 0044: an organisation's e-invoicing connection; `client_secret` and `token` are ciphertexts ('' = none). */
export interface EinvoicingSettingsTable {
  organization_id: number;
  mode: string;
  flow_url: string;
  directory_url: string;
  token_url: string;
  client_id: string;
  client_secret: string;
  token: string;
  pa_matricule: string;
  syntax: string;
  /** Migration 0045: the XP Z12-013 flow profile declared with each invoice sent. */
  profile: string;
  updated_at: string;
}

/** Migration 0048: an organisation's bank account; `is_default` 0 or 1 (one default, printed on invoices). */
export interface BankAccountsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  iban: string;
  bic: string;
  is_default: number;
  /** The CSV column mapping confirmed for this account's statements (JSON), null until a CSV was imported. */
  csv_mapping: string | null;
  /** Migration 0057: the booked balance the latest statement states (ten-thousandths) and its date; null until one does. */
  statement_balance: number | null;
  statement_balance_date: string | null;
  created_at: string;
  updated_at: string;
}

/** Migration 0048: a statement line; `amount` and `allocated` in ten-thousandths, a credit positive. */
export interface BankTransactionsTable {
  id: Generated<number>;
  organization_id: number;
  account_id: number;
  date: string;
  value_date: string | null;
  amount: number;
  currency: string;
  label: string;
  counterparty: string;
  reference: string;
  fingerprint: string;
  status: string;
  allocated: number;
  suggestions: string;
  ignore_reason: string;
  source_file: string;
  created_at: string;
  updated_at: string;
}

/** Migration 0048: what a transaction paid: an invoice (its payment row) or an expense. */
export interface BankMatchesTable {
  id: Generated<number>;
  organization_id: number;
  transaction_id: number;
  kind: string;
  target_id: number;
  amount: number;
  payment_id: number | null;
  created_at: string;
}

/** Migration 0052: where a credit note's amount went: an invoice it was set against, or a refund (invoice_id null). */
export interface CreditAllocationsTable {
  id: Generated<number>;
  organization_id: number;
  credit_id: number;
  invoice_id: number | null;
  amount: number;
  method: string;
  date: string;
  created_at: string;
}
