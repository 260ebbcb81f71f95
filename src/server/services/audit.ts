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

/** The link of an organisation's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** An entry's own hash binds its place (organisation, sequence), the previous entry's hash and its content's hash. */
export const entryHash = (organizationId: number, sequence: number, previousHash: string, contentHash: string): string =>
  sha256(`${organizationId}:${sequence}:${previousHash}:${contentHash}`);

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
      hash: entryHash(organizationId, sequence, previousHash, contentHash),
      created_at: at,
    },
  });
}

/** The issue of a document (credit notes included), with the hash of what was issued, read in the issuing transaction. */
export async function appendIssue(
  db: Db,
  organizationId: number,
  documentId: number,
  userId?: number,
  marks: Pick<AuditContent, 'backfilled'> = {},
): Promise<void> {
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
      ...marks,
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

/**
 * Why an entry is broken, or undefined when its hashes, its link, (for an issue) its document and (for an archive)
 * the kept PDF, as recorded on the document and as found on disk, still match.
 */
async function brokenReason(
  db: Db,
  organizationId: number,
  row: AuditRow,
  expected: { sequence: number; previous: string },
  dataDir: string,
) {
  if (row.sequence !== expected.sequence) return 'sequence';
  if (row.previous_hash !== expected.previous) return 'link';
  if (sha256(row.content) !== row.content_hash) return 'content';
  if (entryHash(organizationId, row.sequence, row.previous_hash, row.content_hash) !== row.hash) return 'hash';
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
 * Recomputes every hash and link of the organisation's chain, every issued document's legal hash, and the SHA-256 of
 * every kept PDF under `dataDir` (a file altered or gone breaks its archive entry).
 */
export async function verifyAudit(db: Db, organizationId: number, dataDir: string): Promise<AuditVerification> {
  const chain = await listChain(db, { organizationId });
  let previous = GENESIS_HASH;
  for (const [index, row] of chain.entries()) {
    if (await brokenReason(db, organizationId, row, { sequence: index + 1, previous }, dataDir))
      return { ok: false, entries: chain.length, first_broken: row.sequence };
    previous = row.hash;
  }
  return { ok: true, entries: chain.length };
}
