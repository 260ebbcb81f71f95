import type { ServerResponse } from 'node:http';
import { binaryFileSchema, textFileSchema } from '../../shared/schemas/answers';

export type FileCharset = 'utf-8' | 'iso-8859-15';

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

/**
 * Text to ISO-8859-15 (Latin-9: French letters, œ and €), one of the encodings LPF art. A47 A-1 accepts for the FEC;
 * typographic quotes and dashes become their plain forms, any other character outside it '?', so the file never
 * carries bytes an administration tool would misread.
 */
export function encodeLatin9(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of [...text].map((c) => PLAIN[c] ?? c).join('')) {
    const code = char.codePointAt(0) ?? 0x3f;
    const special = LATIN9_SPECIALS[char];
    if (special !== undefined) bytes.push(special);
    else if (code < 0x100 && !LATIN1_ONLY.has(code)) bytes.push(code);
    else bytes.push(0x3f);
  }
  return Buffer.from(bytes);
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
