import type { Insertable } from 'kysely';
import type { BankTransactionsTable } from '../db/schema';
import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail } from '../errors';
import { fingerprintsOf, insertTransactions } from '../db/queries/bank';
import { runHeavy } from '../workers/heavy-work';
import { nextTurn } from '../workers/packed';
import type { Statement } from '../bank/statement';
import type { CsvReading } from '../bank/read-statement';
import { type CsvMapping, csvMappingSchema } from '../../shared/schemas/bank-csv';
import { toStoredUnits } from '../../shared/money';
import { compactAccountCode, printedIban } from '../../shared/iban';
import { SURE } from '../../shared/schemas/bank';
import { getBankAccountRow } from './bank-accounts';
import { currentMatcher } from './bank-matching';

/** A statement file at most: a year of a busy account in any of the formats. */
export const STATEMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Lines written per transaction: the event loop and the other writers get a turn between them. */
const WRITE_PAGE = 500;

/**
 * The account a statement names against the one it is imported on: an IBAN (camt) must be that IBAN, an account number
 * without IBAN (camt Othr) the end of it; a French bank, branch and account number (OFX) must be the ones inside a
 * French IBAN. A statement naming no account is taken as is.
 */
function assertSameAccount(statement: Statement, iban: string) {
  const said = statement.account;
  if (!said) return;
  if ('iban' in said) {
    if (compactAccountCode(said.iban) !== iban)
      fail(
        'BAD_REQUEST',
        `Ce relevé est celui du compte ${printedIban(said.iban)}, pas de ${printedIban(iban)} : importez-le sur le bon compte`,
      );
    return;
  }
  if ('other' in said) {
    // A bank that names the account by its own number (BBAN) writes the IBAN's digits after the check digits; a
    // short code tells nothing either way.
    const number = compactAccountCode(said.other);
    if (number.length >= 8 && number !== iban && !iban.slice(4).endsWith(number))
      fail('BAD_REQUEST', `Ce relevé est celui du compte ${said.other}, pas de ${printedIban(iban)} : importez-le sur le bon compte`);
    return;
  }
  if (!iban.startsWith('FR') && !iban.startsWith('MC')) return;
  const bank = iban.slice(4, 9);
  const branch = iban.slice(9, 14);
  const number = iban.slice(14, 25);
  const matches =
    said.bank.padStart(5, '0') === bank &&
    (!said.branch || said.branch.padStart(5, '0') === branch) &&
    said.number.padStart(11, '0').endsWith(number);
  if (!matches)
    fail(
      'BAD_REQUEST',
      `Ce relevé est celui du compte ${said.bank} ${said.branch} ${said.number}, pas de ${printedIban(iban)} (banque ${bank}, guichet ${branch}, compte ${number}) : importez-le sur le bon compte`,
    );
}

/** The CSV mapping the user confirmed for the account; a mapping kept before confirmation existed counts as none. */
function confirmedMapping(stored: string | null): CsvMapping | null {
  if (!stored) return null;
  try {
    const kept = JSON.parse(stored) as { confirmed?: unknown };
    if (kept.confirmed !== true) return null;
    const parsed = csvMappingSchema.safeParse(kept);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How this upload's CSV is read: the mapping sent, the account's confirmed one, a preview when asked for, else the guess. */
function csvReadingOf(upload: StatementUpload, remembered: CsvMapping | null): CsvReading {
  const ask = upload.csv_preview === true;
  if (upload.csv_mapping) return { mode: 'given', mapping: upload.csv_mapping };
  if (remembered) return { mode: 'remembered', mapping: remembered, ask };
  return ask ? { mode: 'preview' } : { mode: 'guess' };
}

export type StatementUpload = {
  filename: string;
  content_base64: string;
  csv_mapping?: CsvMapping | undefined;
  csv_preview?: boolean | undefined;
};

/**
 * Imports a statement on an account. A CSV asked with `csv_preview` on an account whose columns nobody confirmed yet
 * imports nothing: the answer carries the guessed mapping and the first lines read with it (`csv_mapping_required`),
 * and the file comes again with the mapping confirmed (`csv_mapping`), remembered from then on. Without `csv_preview`
 * the call confirms the guess.
 */
export async function importStatement(db: Db, organizationId: number, accountId: number, upload: StatementUpload) {
  const account = await getBankAccountRow(db, organizationId, accountId);
  const bytes = new Uint8Array(Buffer.from(upload.content_base64.replace(/\s+/g, ''), 'base64'));
  if (bytes.byteLength === 0) fail('BAD_REQUEST', 'Fichier : le fichier est vide');
  if (bytes.byteLength > STATEMENT_MAX_BYTES) fail('PAYLOAD_TOO_LARGE', 'Le relevé dépasse 10 Mo : découpez-le par période');
  const remembered = confirmedMapping(account.csv_mapping);
  const csv = csvReadingOf(upload, remembered);
  const reading = await runHeavy('readStatement', [bytes, upload.filename, csv], [bytes.buffer as ArrayBuffer]);
  if (reading.ok === false) fail('BAD_REQUEST', reading.message);
  if (reading.ok === 'preview')
    return {
      imported: 0,
      duplicates: 0,
      matched: 0,
      suggestions: 0,
      rejected: [],
      format: 'csv',
      csv_mapping_required: true,
      csv_preview: reading.preview,
    };
  const { statement } = reading;
  assertSameAccount(statement, account.iban);

  const known = await fingerprintsOf(db, accountId, reading.fingerprints);
  const matcher = await currentMatcher(db, organizationId);
  const now = nowIso();
  let imported = 0;
  let sure = 0;
  let suggested = 0;
  // A line twice in the same file (the same bank id) is kept once.
  const taken = new Set(known);
  for (let start = 0; start < statement.lines.length; start += WRITE_PAGE) {
    if (start > 0) await nextTurn();
    const rows: Insertable<BankTransactionsTable>[] = [];
    for (const [offset, line] of statement.lines.slice(start, start + WRITE_PAGE).entries()) {
      const fingerprint = reading.fingerprints[start + offset] ?? '';
      if (taken.has(fingerprint)) continue;
      taken.add(fingerprint);
      const amount = toStoredUnits(line.amount);
      const proposals = matcher.suggest({
        amount,
        currency: line.currency,
        label: line.label,
        counterparty: line.counterparty,
        reference: line.reference,
      });
      if (proposals.length > 0) suggested++;
      if (proposals.length > 0 && proposals.every((p) => p.confidence >= SURE)) sure++;
      rows.push({
        organization_id: organizationId,
        account_id: accountId,
        date: line.date,
        value_date: line.valueDate,
        amount,
        currency: line.currency,
        label: line.label.slice(0, 500),
        counterparty: line.counterparty.slice(0, 200),
        reference: line.reference.slice(0, 140),
        fingerprint,
        status: proposals.length > 0 ? 'suggested' : 'unmatched',
        allocated: 0,
        suggestions: JSON.stringify(proposals.map((p) => ({ kind: p.kind, id: p.id, confidence: p.confidence }))),
        ignore_reason: '',
        source_file: upload.filename.slice(0, 200),
        created_at: now,
        updated_at: now,
      });
    }
    imported += await db.transaction().execute((trx) => insertTransactions(trx, rows));
  }
  if (statement.csvMapping && csv.mode !== 'remembered')
    await db
      .updateTable('bank_accounts')
      .set({ csv_mapping: JSON.stringify({ ...statement.csvMapping, confirmed: true }), updated_at: now })
      .where('id', '=', accountId)
      .execute();
  // An older statement imported late never replaces the balance a newer one stated.
  const { balance } = statement;
  if (balance && (account.statement_balance_date === null || balance.date >= account.statement_balance_date))
    await db
      .updateTable('bank_accounts')
      .set({ statement_balance: toStoredUnits(balance.amount), statement_balance_date: balance.date, updated_at: now })
      .where('id', '=', accountId)
      .execute();
  return {
    imported,
    duplicates: statement.lines.length - imported,
    matched: sure,
    suggestions: suggested,
    rejected: statement.rejected,
    format: statement.format,
  };
}
