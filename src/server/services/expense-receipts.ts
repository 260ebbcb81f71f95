import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RECEIPT_MAX_BYTES, type ReceiptType } from '../../shared/schemas/expense';
import { fail } from '../errors';
import { div } from '../../shared/money';
import { formatNumber } from '../../shared/typography';

const EXTENSIONS: Record<ReceiptType, string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'application/xml': ['xml'],
};
const NAMES: Record<ReceiptType, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'application/xml': 'XML',
};

/** What the bytes are, by their signature (never by the name or the declared type, which anyone can write). */
export function sniffReceiptType(bytes: Buffer): ReceiptType | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

const megabytes = (n: number) => `${formatNumber(div(n, 1024 * 1024), 1)} Mo`;

export function tooBig(field: string, size: number): string | null {
  return size > RECEIPT_MAX_BYTES ? `${field} : 10 Mo au plus (ce fichier fait ${megabytes(size)})` : null;
}

/**
 * A receipt checked before anything is written: at most 10 MB, a PDF, PNG, JPEG or WebP by its bytes, and what its
 * name and declared type say it is. An SVG, or an HTML page renamed .pdf, is refused.
 */
export function checkReceipt(filename: string, bytes: Buffer, declaredType?: string): ReceiptType {
  const big = tooBig('Justificatif', bytes.length);
  if (big) fail('BAD_REQUEST', big);
  if (bytes.length === 0) fail('BAD_REQUEST', 'Justificatif : le fichier est vide');
  const type = sniffReceiptType(bytes);
  const extension = path.extname(filename).slice(1).toLowerCase();
  if (!type) {
    // An XML is stored only by the e-invoice import: by hand, `.xml` is refused like any other type.
    const claimed = Object.entries(EXTENSIONS).find(([t, exts]) => t !== 'application/xml' && exts.includes(extension));
    fail(
      'BAD_REQUEST',
      claimed
        ? `Justificatif : « ${filename} » n’est pas un vrai fichier ${NAMES[claimed[0] as ReceiptType]} (son contenu ne correspond pas)`
        : 'Justificatif : seuls les PDF, PNG, JPEG et WebP sont acceptés',
    );
  }
  if (extension && !EXTENSIONS[type].includes(extension))
    fail('BAD_REQUEST', `Justificatif : « ${filename} » est en réalité un fichier ${NAMES[type]} ; renommez-le en .${EXTENSIONS[type][0]}`);
  if (
    declaredType &&
    declaredType !== 'application/octet-stream' &&
    declaredType !== type &&
    !(type === 'image/jpeg' && declaredType === 'image/jpg')
  )
    fail('BAD_REQUEST', `Justificatif : le fichier se dit ${declaredType} mais c’est un ${NAMES[type]}`);
  return type;
}

/** `data:<type>;base64,<bytes>` → its declared type and bytes. */
export function decodeDataUrl(dataUrl: string): { declaredType: string; bytes: Buffer } {
  const comma = dataUrl.indexOf(',');
  const declaredType = dataUrl.slice(5, comma).split(';')[0]?.toLowerCase() ?? '';
  return { declaredType, bytes: Buffer.from(dataUrl.slice(comma + 1), 'base64') };
}

export const receiptsDir = (dataDir: string, organizationId: number) => path.join(dataDir, 'receipts', String(organizationId));

/** Stores the bytes under a random name (nothing of the user's name reaches the disk); answers the relative path. */
export function writeReceiptFile(dataDir: string, organizationId: number, type: ReceiptType, bytes: Buffer): string {
  const dir = receiptsDir(dataDir, organizationId);
  fs.mkdirSync(dir, { recursive: true });
  const name = `${crypto.randomBytes(16).toString('hex')}.${EXTENSIONS[type][0]}`;
  fs.writeFileSync(path.join(dir, name), bytes, { flag: 'wx' });
  return path.join('receipts', String(organizationId), name);
}

const STORED = /^receipts\/\d+\/[0-9a-f]{32}\.(pdf|png|jpg|webp|xml)$/;

/** Reads a stored receipt; only paths the server wrote are ever opened. */
export function readReceiptFile(dataDir: string, relative: string): Buffer | null {
  const normalized = relative.split(path.sep).join('/');
  if (!STORED.test(normalized)) return null;
  const file = path.join(dataDir, normalized);
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

export function removeReceiptFile(dataDir: string, relative: string | null | undefined): void {
  if (!relative || !STORED.test(relative.split(path.sep).join('/'))) return;
  fs.rmSync(path.join(dataDir, relative), { force: true });
}
