import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { LIFECYCLE_STATUS_KEYS, statusOfCode } from '../../shared/einvoice-lifecycle';
import { normalizeSiren } from '../../shared/identifiers';
import { logger } from '../logger';
import type { DirectoryEntry, OutgoingInvoice, PlatformAccount, PlatformConnector, PlatformUpdate, SentFile } from './platform';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A status update dropped in the inbox: the status by key ('refused') or by platform code (210). */
const inboxUpdateSchema = z
  .object({
    reference: z.string().min(1),
    status: z.enum(LIFECYCLE_STATUS_KEYS).optional(),
    code: z.number().int().optional(),
    date: z.iso.date(),
    reason: z.string().default(''),
  })
  .transform((u, ctx) => {
    const status = u.status ?? (u.code === undefined ? undefined : statusOfCode(u.code));
    if (!status || status === 'cash_withdrawn') {
      ctx.addIssue({ code: 'custom', message: 'status or code: not a platform status' });
      return z.NEVER;
    }
    return { reference: u.reference, status, date: u.date, reason: u.reason };
  });

const directorySchema = z.object({ siren: z.string(), name: z.string(), platform: z.string(), routing_id: z.string() });

async function writeSynced(file: string, bytes: Buffer | string): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

/**
 * The approved platform as a folder: what a platform receives is written under `outbox/<organisation>/<reference>/`
 * (the Factur-X PDF as archived, the XML, and `envelope.json` naming both with their SHA-256), and what it reports is
 * read from `inbox/<organisation>/*.json`, one update per file. It serves a business whose platform takes files by a
 * synchronised folder or SFTP drop, an operator who uploads by hand, and the tests, which play the platform.
 * The reference is the document's uuid: a second send of the same document finds its folder and writes nothing.
 */
export class FolderPlatform implements PlatformConnector {
  readonly name = 'dossier';
  constructor(private readonly root: string) {}

  private outbox = (account: PlatformAccount) => path.join(this.root, 'outbox', String(account.organizationId));
  private inbox = (account: PlatformAccount) => path.join(this.root, 'inbox', String(account.organizationId));

  /** What an earlier send of that reference wrote, read back from its envelope. */
  private async sent(final: string, reference: string): Promise<{ reference: string; files: SentFile[] }> {
    const envelope = JSON.parse(await fs.readFile(path.join(final, 'envelope.json'), 'utf8')) as { files: SentFile[] };
    return { reference, files: envelope.files };
  }

  async send(account: PlatformAccount, invoice: OutgoingInvoice): Promise<{ reference: string; files: SentFile[] }> {
    const reference = invoice.envelope.document.uuid;
    const outbox = this.outbox(account);
    const final = path.join(outbox, reference);
    if (await exists(final)) return this.sent(final, reference);
    await fs.mkdir(outbox, { recursive: true });
    // Written in a hidden folder then renamed at once: a reader of the outbox sees all three files or none.
    const temp = path.join(outbox, `.tmp-${randomUUID()}`);
    await fs.mkdir(temp);
    try {
      const files: SentFile[] = [];
      await writeSynced(path.join(temp, invoice.pdf.name), invoice.pdf.bytes);
      files.push({ name: invoice.pdf.name, role: 'invoice', sha256: sha256(invoice.pdf.bytes), size: invoice.pdf.bytes.length });
      if (invoice.xml !== null) {
        const xml = Buffer.from(invoice.xml, 'utf8');
        await writeSynced(path.join(temp, 'factur-x.xml'), xml);
        files.push({ name: 'factur-x.xml', role: 'xml', sha256: sha256(xml), size: xml.length });
      }
      const envelope = { ...invoice.envelope, reference, files };
      await writeSynced(path.join(temp, 'envelope.json'), `${JSON.stringify(envelope, null, 2)}\n`);
      await fs.rename(temp, final);
      return { reference, files };
    } catch (error) {
      await fs.rm(temp, { recursive: true, force: true });
      // Another send of the same document won the rename: its folder is the transmission.
      if (await exists(final)) return this.sent(final, reference);
      throw error;
    }
  }

  async status(account: PlatformAccount, reference: string): Promise<PlatformUpdate[]> {
    const inbox = this.inbox(account);
    let names: string[];
    try {
      names = (await fs.readdir(inbox)).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return [];
    }
    const updates: PlatformUpdate[] = [];
    for (const name of names) {
      let parsed: z.ZodSafeParseResult<z.output<typeof inboxUpdateSchema>>;
      try {
        parsed = inboxUpdateSchema.safeParse(JSON.parse(await fs.readFile(path.join(inbox, name), 'utf8')));
      } catch {
        logger.error(`Platform inbox: ${name} is not JSON, skipped`);
        continue;
      }
      if (!parsed.success) {
        logger.error(`Platform inbox: ${name} is not a status update, skipped`);
        continue;
      }
      if (parsed.data.reference === reference) updates.push({ id: `${this.name}:${name}`, ...parsed.data });
    }
    // Oldest first: by the date the platform gives, then by file name.
    return updates.sort((a, b) => a.date.localeCompare(b.date));
  }

  async lookupDirectory(_account: PlatformAccount, siren: string): Promise<DirectoryEntry | null> {
    const digits = normalizeSiren(siren);
    if (!/^\d{9}$/.test(digits)) return null;
    try {
      const parsed = directorySchema.safeParse(JSON.parse(await fs.readFile(path.join(this.root, 'directory', `${digits}.json`), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
