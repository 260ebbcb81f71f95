import type { Db } from '../db/connection';
import { customerInputSchema, type Customer } from '../../shared/schemas/customer';
import { formatCustomerNumber } from '../../shared/numbering';
import { frenchNumber, headerKey, parseCsv, toCsv } from '../../shared/csv';
import { fail, validationMessages } from '../errors';
import { nextCounter } from '../db/queries/counters';
import { insertCustomer, listCustomers } from '../db/queries/customers';
import { upsertSearchEntry } from '../db/queries/search';
import { getDocumentTemplate } from './settings';

/** The columns of the customers CSV, in export order; import finds them by name, in any order. */
const COLUMNS: { header: string; read: (c: Customer) => string; write: (row: Record<string, unknown>, value: string) => void }[] = [
  { header: 'Numéro', read: () => '', write: () => {} }, // assigned by the server: exported, never imported
  { header: 'Nom', read: (c) => c.name, write: (r, v) => (r.name = v) },
  { header: 'Type', read: (c) => (c.type === 'company' ? 'entreprise' : 'particulier'), write: (r, v) => (r.type = /^part/i.test(v) ? 'individual' : v === '' || /^ent/i.test(v) ? 'company' : v) },
  { header: 'Raison sociale', read: (c) => c.legal_name, write: (r, v) => (r.legal_name = v) },
  { header: 'E-mail', read: (c) => c.email, write: (r, v) => (r.email = v) },
  { header: 'Téléphone', read: (c) => c.phone, write: (r, v) => (r.phone = v) },
  { header: 'Mobile', read: (c) => c.mobile, write: (r, v) => (r.mobile = v) },
  { header: 'SIREN/SIRET', read: (c) => c.business_id, write: (r, v) => (r.business_id = v) },
  { header: 'N° TVA', read: (c) => c.vat_number, write: (r, v) => (r.vat_number = v) },
  { header: 'Adresse', read: (c) => c.address.line1, write: (r, v) => ((r.address as Record<string, string>).line1 = v) },
  { header: 'Complément', read: (c) => c.address.line2, write: (r, v) => ((r.address as Record<string, string>).line2 = v) },
  { header: 'Code postal', read: (c) => c.address.postal_code, write: (r, v) => ((r.address as Record<string, string>).postal_code = v) },
  { header: 'Ville', read: (c) => c.address.city, write: (r, v) => ((r.address as Record<string, string>).city = v) },
  { header: 'Pays', read: (c) => c.address.country, write: (r, v) => v && ((r.address as Record<string, string>).country = v) },
  { header: 'Délai de paiement', read: (c) => String(c.maturity), write: (r, v) => (r.maturity = frenchNumber(v)) },
  { header: 'Devise', read: (c) => c.currency, write: (r, v) => v && (r.currency = v.toUpperCase()) },
  { header: 'Note', read: (c) => c.note, write: (r, v) => (r.note = v) },
];
const byKey = new Map(COLUMNS.map((c) => [headerKey(c.header), c]));

export interface ImportReport {
  total_rows: number;
  valid: number;
  rejected: { line: number; messages: string[] }[];
  ignored_columns: string[];
  created: number;
}

export const IMPORT_MAX_ROWS = 10_000;

/**
 * Reads every row with the same schema as the form. A dry run writes nothing; otherwise the valid rows are created
 * in one transaction (all of them or none), each numbered from the customer series.
 */
export async function importCustomers(db: Db, organizationId: number, csv: string, dryRun: boolean): Promise<ImportReport> {
  const { header, rows } = parseCsv(csv);
  const columns = header.map((h) => byKey.get(headerKey(h)));
  if (!columns.some((c) => c?.header === 'Nom')) fail('BAD_REQUEST', 'La colonne « Nom » est introuvable : la première ligne doit nommer les colonnes (Nom;E-mail;Ville…)');
  if (rows.length > IMPORT_MAX_ROWS) fail('BAD_REQUEST', `Le fichier compte ${rows.length} lignes : ${IMPORT_MAX_ROWS} au plus par import`);

  const valid: Customer[] = [];
  const rejected: ImportReport['rejected'] = [];
  for (const { line, cells } of rows) {
    const raw: Record<string, unknown> = { address: {} };
    columns.forEach((column, i) => column?.write(raw, (cells[i] ?? '').trim()));
    const problems: string[] = [];
    if (cells.length > header.length) problems.push(`${cells.length} champs pour ${header.length} colonnes : un point-virgule en trop ?`);
    if (cells.some((c) => c.includes('\uFFFD'))) problems.push('Caractères illisibles : enregistrez le fichier en UTF-8');
    const parsed = customerInputSchema.safeParse(raw);
    if (!parsed.success) problems.push(...validationMessages(parsed.error.issues));
    if (problems.length || !parsed.success) rejected.push({ line, messages: problems });
    else valid.push(parsed.data);
  }

  let created = 0;
  if (!dryRun && valid.length > 0) {
    const template = await getDocumentTemplate(db, organizationId);
    await db.transaction().execute(async (trx) => {
      for (const customer of valid) {
        const number = formatCustomerNumber(template.customer_numbering, await nextCounter(trx, { organizationId, name: 'customer' }));
        const id = await insertCustomer(trx, { organizationId, number, customer });
        await upsertSearchEntry(trx, {
          organizationId,
          kind: 'customer',
          refId: id,
          title: customer.name,
          subtitle: number,
          body: [customer.legal_name, customer.email, customer.business_id, customer.vat_number, customer.address.city].filter(Boolean).join(' '),
        });
      }
    });
    created = valid.length;
  }
  const ignored = header.filter((_, i) => !columns[i]);
  return { total_rows: rows.length, valid: valid.length, rejected, ignored_columns: ignored, created };
}

/** Every live customer, in number order, as a CSV French Excel opens as is. */
export async function exportCustomers(db: Db, organizationId: number): Promise<{ filename: string; content: string }> {
  const { data } = await listCustomers(db, { organizationId, archived: 'exclude', sortBy: 'number', sortOrder: 'asc', offset: 0, limit: 1_000_000 });
  const rows = data.map((c) => COLUMNS.map((col) => (col.header === 'Numéro' ? c.number : col.read(c as unknown as Customer))));
  return { filename: `clients-${new Date().toISOString().slice(0, 10)}.csv`, content: toCsv(COLUMNS.map((c) => c.header), rows) };
}
