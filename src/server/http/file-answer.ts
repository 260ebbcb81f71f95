import type { ServerResponse } from 'node:http';
import { binaryFileSchema, textFileSchema } from '../../shared/schemas/answers';
import type { FileCharset } from '../door-formats';

/** ISO-8859-15 puts these 8 characters where ISO-8859-1 (Node's 'latin1') has ¤ ¦ ¨ ´ ¸ ¼ ½ ¾. */
const LATIN9_SPECIALS: Record<string, number> = { '€': 0xa4, Š: 0xa6, š: 0xa8, Ž: 0xb4, ž: 0xb8, Œ: 0xbc, œ: 0xbd, Ÿ: 0xbe };
const LATIN1_ONLY = new Set([0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe]);
/** Typography Latin-9 lacks, written as its plain equivalent rather than lost ('L’Atelier' → "L'Atelier"). */
const PLAIN: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': '-',
  '—': '-',
  '‑': '-',
  '…': '...',
  '\u202f': ' ',
  '\u2009': ' ',
};

const SPECIAL_BYTES = new Map(Object.entries(LATIN9_SPECIALS).map(([char, byte]) => [char.charCodeAt(0), byte]));
const PLAIN_BYTES = new Map(Object.entries(PLAIN).map(([char, plain]) => [char.charCodeAt(0), [...plain].map((c) => c.charCodeAt(0))]));
/** The longest plain form ('…' → '...'): the most bytes one UTF-16 unit can become. */
const MOST_BYTES = Math.max(1, ...[...PLAIN_BYTES.values()].map((bytes) => bytes.length));

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Text to ISO-8859-15 (Latin-9: French letters, œ and €), one of the encodings LPF art. A47 A-1 accepts for the FEC;
 * typographic quotes and dashes become their plain forms, any other character outside it '?', so the file never
 * carries bytes an administration tool would misread. One pass over UTF-16 units into one buffer: a year's FEC is
 * megabytes, sent from the event loop.
 */
export function encodeLatin9(text: string): Buffer {
  const bytes = Buffer.allocUnsafe(text.length * MOST_BYTES);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[length++] = code;
      continue;
    }
    const plain = PLAIN_BYTES.get(code);
    if (plain) {
      for (const byte of plain) bytes[length++] = byte;
      continue;
    }
    const special = SPECIAL_BYTES.get(code);
    if (special !== undefined) bytes[length++] = special;
    else if (code < 0x100 && !LATIN1_ONLY.has(code)) bytes[length++] = code;
    else {
      // A character beyond the BMP is one '?' for its two units.
      if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
      bytes[length++] = 0x3f;
    }
  }
  return bytes.subarray(0, length);
}

/** A procedure's `{ filename, content }` sent as the file itself, to be saved under that name. */
export function sendFile(res: ServerResponse, file: { contentType: string; charset: FileCharset }, answer: unknown): void {
  const { filename, content } = textFileSchema.parse(answer);
  const body = file.charset === 'iso-8859-15' ? encodeLatin9(content) : Buffer.from(content, 'utf8');
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  res.writeHead(200, {
    'Content-Type': `${file.contentType}; charset=${file.charset}`,
    'Content-Length': body.length,
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/**
 * A procedure's `{ filename, content_type, content_base64 }` shown by the browser itself (a receipt): inline, in
 * the type the server read from its bytes (only PDF and images are ever stored), never sniffed into another.
 */
export function sendInlineFile(res: ServerResponse, answer: unknown): void {
  const { filename, content_type, content_base64 } = binaryFileSchema.parse(answer);
  const body = Buffer.from(content_base64, 'base64');
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  res.writeHead(200, {
    'Content-Type': content_type,
    'Content-Length': body.length,
    'Content-Disposition': `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  });
  res.end(body);
}
