import { createHash } from 'node:crypto';
import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fromStoredUnits } from '../../shared/money';
import {
  auditContentSchema,
  type AuditContent,
  type AuditEntry,
  type AuditEvent,
  type AuditVerification,
} from '../../shared/schemas/audit';
import { countEntries, findLastEntry, findLegalContent, insertEntry, listChain, listEntries, type AuditRow } from '../db/queries/audit';
import { getUserContact } from '../db/queries/users';
import { findPdfArchive } from '../db/queries/pdf-archives';
import { fail } from '../errors';
import { lockKey } from '../db/dialect';
import { archiveIntact } from './archive-file';
import { currentAuditKey } from './audit-key';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { loggedIds, RunningTotals, sameTotals, trustedPayload } from './audit-closings';
import { listClosings, listIssuedDocuments, listPaymentFacts, type ClosingRow, type PaymentFact } from '../db/queries/audit-closings';

/** The link of an organisation's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const linkText = (organizationId: number, sequence: number, previousHash: string, contentHash: string) =>
  `${organizationId}:${sequence}:${previousHash}:${contentHash}`;

/**
 * An entry's own hash binds its place (organisation, sequence), the previous entry's hash and its content's hash,
 * keyed (HMAC-SHA-256, services/audit-key.ts): whoever rewrites the database without the key cannot recompute it.
 */
export const entryHash = (organizationId: number, sequence: number, previousHash: string, contentHash: string): string =>
  currentAuditKey().mac(linkText(organizationId, sequence, previousHash, contentHash));

/** The plain SHA-256 link the log used before it was keyed: accepted only inside a signed legacy seal. */
export const legacyEntryHash = (organizationId: number, sequence: number, previousHash: string, contentHash: string): string =>
  sha256(linkText(organizationId, sequence, previousHash, contentHash));

/** SHA-256 of an issued document's legal content as stored; undefined when the document is gone. */
export async function legalHash(db: Db, organizationId: number, documentId: number): Promise<string | undefined> {
  const content = await findLegalContent(db, { organizationId, documentId });
  return content ? sha256(JSON.stringify(content)) : undefined;
}

async function userOf(db: Db, userId: number | undefined): Promise<AuditContent['user']> {
  if (userId === undefined) return null;
  const user = await getUserContact(db, { userId });
  return user ? { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email } : null;
}

type EventDetails = Omit<AuditContent, 'event' | 'at' | 'user'>;

/**
 * Appends one entry at the end of the organisation's chain. Call it with the transaction that writes the event
 * itself: the entry and its event land together or not at all, and the chain stays locked until it commits.
 */
export async function appendAudit(
  db: Db,
  organizationId: number,
  event: AuditEvent,
  details: EventDetails,
  userId?: number,
): Promise<void> {
  const at = nowIso();
  const content: AuditContent = { event, at, user: await userOf(db, userId), ...details };
  const text = JSON.stringify(content);
  const key = currentAuditKey(); // before the lock: a key file read at first use never holds the chain
  // Held to the commit: another process's transaction appending to this chain waits, then reads this entry as its last.
  await lockKey(db, 'auditChain', organizationId);
  const last = await findLastEntry(db, { organizationId });
  const sequence = (last?.sequence ?? 0) + 1;
  const previousHash = last?.hash ?? GENESIS_HASH;
  const contentHash = sha256(text);
  await insertEntry(db, {
    organizationId,
    entry: {
      sequence,
      event,
      content: text,
      content_hash: contentHash,
      previous_hash: previousHash,
      hash: key.mac(linkText(organizationId, sequence, previousHash, contentHash)),
      created_at: at,
    },
  });
}

/** The issue of a document (credit notes included), with the hash of what was issued, read in the issuing transaction. */
export async function appendIssue(db: Db, organizationId: number, documentId: number, userId?: number): Promise<void> {
  const content = await findLegalContent(db, { organizationId, documentId });
  if (!content) fail('NOT_FOUND', 'Document introuvable');
  const { document } = content;
  await appendAudit(
    db,
    organizationId,
    'issue',
    {
      document: {
        id: documentId,
        type: String(document.type),
        number: typeof document.number === 'string' ? document.number : null,
        total: fromStoredUnits(Number(document.total)),
        currency: String(document.currency),
      },
      legal_hash: sha256(JSON.stringify(content)),
    },
    userId,
  );
}

function entryOf(row: AuditRow): AuditEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.content);
  } catch {
    parsed = undefined;
  }
  const content = auditContentSchema.safeParse(parsed);
  const event = auditContentSchema.shape.event.safeParse(row.event);
  return {
    ...row,
    event: event.success ? event.data : 'issue',
    // A content that no longer reads (altered by hand) is still listed; verify names it.
    content: content.success ? content.data : { event: event.success ? event.data : 'issue', at: row.created_at, user: null },
  };
}

export async function getAuditPage(db: Db, organizationId: number, page: { page: number; per_page: number }) {
  const [total, rows] = await Promise.all([
    countEntries(db, { organizationId }),
    listEntries(db, { organizationId, offset: (page.page - 1) * page.per_page, limit: page.per_page }),
  ]);
  return { total, data: rows.map(entryOf) };
}

const REASONS = {
  sequence: 'une entrée manque ou est en double juste avant elle',
  link: 'elle ne désigne plus l’entrée précédente (chaînage rompu)',
  content: 'son contenu ne correspond plus à son empreinte',
  hash: 'son empreinte n’est pas celle que donne la clé du journal (entrée réécrite sans la clé)',
  columns: 'son événement ou sa date ne sont plus ceux de son contenu',
  document: 'le document émis qu’elle désigne a été modifié depuis son émission',
  archive: 'le PDF conservé enregistré sur le document n’est plus celui du journal',
  file: 'le fichier PDF conservé a été modifié ou a disparu',
  payment: 'le paiement qu’elle enregistre a été modifié depuis (facture, date, montant, mode ou contre-écriture)',
  payment_gone: 'le paiement qu’elle enregistre a disparu de la base',
} as const;
type BrokenReason = keyof typeof REASONS;

/**
 * Why an entry is broken, or undefined when its hashes, its link, (for an issue) its document and (for an archive)
 * the kept PDF, as recorded on the document and as found on disk, still match. Up to `legacyThrough` (the boundary
 * a signed seal holds) the plain SHA-256 link of before the key is accepted too.
 */
async function brokenReason(
  db: Db,
  organizationId: number,
  row: AuditRow,
  expected: { sequence: number; previous: string; legacyThrough: number },
  dataDir: string,
): Promise<BrokenReason | undefined> {
  if (row.sequence !== expected.sequence) return 'sequence';
  if (row.previous_hash !== expected.previous) return 'link';
  if (sha256(row.content) !== row.content_hash) return 'content';
  const keyed = entryHash(organizationId, row.sequence, row.previous_hash, row.content_hash) === row.hash;
  const legacy =
    row.sequence <= expected.legacyThrough &&
    legacyEntryHash(organizationId, row.sequence, row.previous_hash, row.content_hash) === row.hash;
  if (!keyed && !legacy) return 'hash';
  // The event and date columns sit outside the hashed text: they must repeat what it says.
  const content = auditContentSchema.safeParse(JSON.parse(row.content));
  if (!content.success || content.data.event !== row.event || content.data.at !== row.created_at) return 'columns';
  if (row.event === 'issue') {
    const { document, legal_hash } = content.data;
    if (!document || !legal_hash) return 'content';
    if ((await legalHash(db, organizationId, document.id)) !== legal_hash) return 'document';
  }
  if (row.event === 'archive') {
    const { document, pdf } = content.data;
    if (!document || !pdf) return 'content';
    const kept = await findPdfArchive(db, { organizationId, documentId: document.id });
    if (kept?.pdf_path !== pdf.path || kept.pdf_sha256 !== pdf.sha256 || kept.pdf_size !== pdf.size) return 'archive';
    if (!(await archiveIntact(dataDir, kept))) return 'file';
  }
  return undefined;
}

/**
 * A payment or reversal entry against the row it records. A recorded payment is only ever cancelled by a counter-entry
 * (C. com. L123-22), never rewritten nor deleted: the receipts, the VAT due on them and the bank journal are read
 * from the rows, so a row that no longer says what its entry says is a tampering the chain alone would not show.
 */
function paymentChanged(row: AuditRow, payments: ReadonlyMap<number, PaymentFact>): BrokenReason | undefined {
  if (row.event !== 'payment' && row.event !== 'payment_reversal') return undefined;
  const content = auditContentSchema.parse(JSON.parse(row.content));
  const logged = content.payment;
  if (!logged) return 'content';
  const stored = payments.get(logged.id);
  if (!stored) return 'payment_gone';
  const same =
    stored.document_id === content.document?.id &&
    stored.date === logged.date &&
    fromStoredUnits(Number(stored.amount)) === logged.amount &&
    stored.method === logged.method &&
    (stored.reverses_id ?? null) === logged.reverses_id;
  return same ? undefined : 'payment';
}

const broken = (entries: number, first_broken: number | undefined, reason: string): AuditVerification =>
  first_broken === undefined ? { ok: false, entries, reason } : { ok: false, entries, first_broken, reason };

/**
 * Checks the closings against the chain just walked: numbered without a gap, each signed by this server's key and
 * chained to the previous one's signature, and each still true of the chain: its last entry is there with the same
 * hash (entries cut after it are missing), its perpetual and period totals still add up.
 */
function closingsProblem(
  closings: ClosingRow[],
  chain: { length: number; hashAt: Map<number, string>; totalsAt: Map<number, RunningTotalsSnapshot> },
): AuditVerification | undefined {
  let previousSignature = '';
  for (const [index, row] of closings.entries()) {
    const label = `la clôture n° ${row.number}`;
    if (row.number !== index + 1) return broken(chain.length, undefined, `La clôture n° ${index + 1} a disparu`);
    if (!row.signature) return broken(chain.length, undefined, 'Le scellement des entrées antérieures à la clé n’est pas signé');
    const payload = trustedPayload(row);
    if (!payload || payload.number !== row.number || payload.last_sequence !== row.last_sequence || payload.period !== row.period)
      return broken(chain.length, undefined, `${capitalizeFirst(label)} n’est plus signée par la clé du journal`);
    if (payload.previous_signature !== previousSignature)
      return broken(chain.length, undefined, `${capitalizeFirst(label)} ne suit plus la clôture n° ${row.number - 1}`);
    previousSignature = row.signature;
    if (payload.last_sequence > chain.length)
      return broken(
        chain.length,
        chain.length + 1,
        `Les entrées n° ${chain.length + 1} à ${payload.last_sequence} ont disparu : ${label} du ${payload.period_end} en comptait ${payload.last_sequence}`,
      );
    if (payload.last_sequence > 0 && chain.hashAt.get(payload.last_sequence) !== payload.last_hash)
      return broken(chain.length, payload.last_sequence, `L’entrée n° ${payload.last_sequence} n’est plus celle que ${label} a scellée`);
    const through = chain.totalsAt.get(payload.last_sequence);
    const before = chain.totalsAt.get(payload.first_sequence - 1);
    if (
      !through ||
      !before ||
      !sameTotals(through.list, payload.cumulative_totals) ||
      !sameTotals(RunningTotals.from(through.list).minus(before.list), payload.period_totals)
    )
      return broken(chain.length, undefined, `Les totaux de ${label} ne correspondent plus aux entrées du journal`);
  }
  return undefined;
}

const documentLabel = (doc: { type: string; number: string | null }) => {
  const row = (DOCUMENT_TYPE_TABLE as Record<string, { one: string } | undefined>)[doc.type];
  return `${capitalizeFirst(row?.one ?? 'le document')} ${doc.number ?? ''}`.trim();
};

type RunningTotalsSnapshot = { list: ReturnType<RunningTotals['list']> };
const capitalizeFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Recomputes every hash and link of the organisation's chain, every issued document's legal hash, and the SHA-256 of
 * every kept PDF under `dataDir` (a file altered or gone breaks its archive entry); then checks the closings (nothing
 * cut after them, their totals) and completeness: every issued document and every payment has its entry, and every
 * payment entry still its payment, unchanged.
 */
export async function verifyAudit(db: Db, organizationId: number, dataDir: string): Promise<AuditVerification> {
  const [chain, closings, paymentRows] = await Promise.all([
    listChain(db, { organizationId }),
    listClosings(db, { organizationId }),
    listPaymentFacts(db, { organizationId }),
  ]);
  const payments = new Map(paymentRows.map((p) => [p.id, p]));
  const seal = closings[0]?.period === 'legacy' ? closings[0] : undefined;
  const sealPayload = seal ? trustedPayload(seal) : undefined;
  // Only a seal signed by the key vouches for plain SHA-256 links; an unsigned one is reported below.
  const legacyThrough = sealPayload?.last_sequence ?? 0;
  const needed = new Set<number>([0]);
  for (const row of closings) {
    const payload = trustedPayload(row);
    if (payload) {
      needed.add(payload.last_sequence);
      needed.add(payload.first_sequence - 1);
    }
  }
  const totals = new RunningTotals();
  const totalsAt = new Map<number, RunningTotalsSnapshot>([[0, { list: [] }]]);
  const hashAt = new Map<number, string>();
  const issuedLogged = new Set<number>();
  const paymentsLogged = new Set<number>();
  let previous = GENESIS_HASH;
  for (const [index, row] of chain.entries()) {
    const reason =
      (await brokenReason(db, organizationId, row, { sequence: index + 1, previous, legacyThrough }, dataDir)) ??
      paymentChanged(row, payments);
    if (reason) return broken(chain.length, row.sequence, `Entrée n° ${row.sequence} : ${REASONS[reason]}`);
    previous = row.hash;
    totals.addEntry(row.content);
    if (needed.has(row.sequence)) {
      totalsAt.set(row.sequence, { list: totals.list() });
      hashAt.set(row.sequence, row.hash);
    }
    const ids = loggedIds(row.content);
    if (ids.issue && ids.document !== undefined) issuedLogged.add(ids.document);
    if (ids.payment !== undefined) paymentsLogged.add(ids.payment);
  }
  const closingProblem = closingsProblem(closings, { length: chain.length, hashAt, totalsAt });
  if (closingProblem) return closingProblem;

  // Completeness: an entry deleted with its document or payment still there. What the log never recorded (before it
  // existed) is listed by the signed seal.
  const unlogged = sealPayload?.unlogged ?? { documents: [], payments_through: 0 };
  const exempt = new Set(unlogged.documents);
  for (const doc of await listIssuedDocuments(db, { organizationId }))
    if (!issuedLogged.has(doc.id) && !exempt.has(doc.id))
      return broken(chain.length, undefined, `${documentLabel(doc)} n’a pas d’entrée au journal`);
  for (const { id } of paymentRows)
    if (!paymentsLogged.has(id) && id > unlogged.payments_through)
      return broken(chain.length, undefined, `Le paiement n° ${id} n’a pas d’entrée au journal`);
  return { ok: true, entries: chain.length };
}
