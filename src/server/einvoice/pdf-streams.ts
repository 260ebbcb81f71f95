import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PDFArray, PDFContext, type PDFDict, PDFName, type PDFObject, PDFObjectParser, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/**
 * Streams of an uploaded PDF, decoded under a byte cap. pdf-lib's own decoders inflate a whole deflate block at a
 * time and a whole stream before answering: a 1 MB bomb inflating to 1 GB took 1.2 GB and seconds of the event loop.
 */

/** A stream that would decode past its cap; the message is French, for the user. */
export class InflatedTooLarge extends Error {}

/** The stream is damaged (not a size problem). */
class Undecodable extends Error {
  constructor() {
    super('Un flux du PDF est illisible');
  }
}

const inflate = promisify(zlib.inflate);

/** Inflated by zlib, off the event loop, stopping at the cap; a truncated stream gives what it holds. */
async function inflateCapped(bytes: Uint8Array, cap: number, tooLarge: string): Promise<Uint8Array> {
  try {
    return await inflate(bytes, { maxOutputLength: cap, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new InflatedTooLarge(tooLarge);
    throw new Undecodable();
  }
}

/** The other filters (LZW, run-length, ASCII) decode a few bytes per block: read one byte past the cap, no more. */
function decodeOtherCapped(
  context: PDFContext,
  filter: PDFName,
  params: PDFObject | undefined,
  bytes: Uint8Array,
  cap: number,
  tooLarge: string,
) {
  const dict = context.obj({ Filter: filter });
  if (params) dict.set(PDFName.of('DecodeParms'), params);
  const decoded = decodePDFRawStream(PDFRawStream.of(dict, bytes)).getBytes(cap + 1);
  if (decoded.length > cap) throw new InflatedTooLarge(tooLarge);
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length);
}

/**
 * A stream's bytes, each of its filters applied in turn under `cap`; InflatedTooLarge(tooLarge) past it. Throws a
 * plain Error for a filter that is no name or that pdf-lib does not know.
 */
export async function decodeCapped(stream: PDFRawStream, cap: number, tooLarge: string): Promise<Uint8Array> {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const params = stream.dict.lookup(PDFName.of('DecodeParms'));
  const filters = filter instanceof PDFArray ? filter.asArray().map((_, i) => filter.lookup(i)) : filter === undefined ? [] : [filter];
  let bytes: Uint8Array = stream.contents;
  for (const [i, name] of filters.entries()) {
    if (!(name instanceof PDFName)) throw new Undecodable();
    const own = params instanceof PDFArray ? params.lookup(i) : params;
    bytes =
      name === PDFName.of('FlateDecode')
        ? await inflateCapped(bytes, cap, tooLarge)
        : decodeOtherCapped(stream.dict.context, name, own, bytes, cap, tooLarge);
  }
  if (bytes.length > cap) throw new InflatedTooLarge(tooLarge);
  return bytes;
}

const OBJECT_STREAM = PDFName.of('ObjStm');
const XREF_STREAM = PDFName.of('XRef');

/** What pdf-lib decodes whole while loading (object and cross-reference streams), and a /Type it cannot tell yet. */
function decodedAtLoad(dict: PDFDict): boolean {
  const type = dict.get(PDFName.of('Type'));
  return type === OBJECT_STREAM || type === XREF_STREAM || (type !== undefined && !(type instanceof PDFName));
}

/** Where pdf-lib's parser stopped (its ByteStream is protected; reading it keeps the scan linear). */
const offsetOf = (parser: PDFObjectParser) => (parser as unknown as { bytes: { offset(): number } }).bytes.offset();

/**
 * Checks, before pdf-lib loads `pdf`, that none of the streams it would decode whole at load exceeds `cap` once
 * decoded. Objects are read as pdf-lib reads them (its own object parser), one after another, so the scan stays
 * linear in the file's size; a damaged stream is left for pdf-lib to refuse.
 */
export async function checkStreamsDecodedAtLoad(pdf: Uint8Array, cap: number, tooLarge: string): Promise<void> {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const header = /\d+\s+\d+\s+obj\b/g;
  const context = PDFContext.create();
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = match.index + match[0].length;
    const parser = PDFObjectParser.forBytes(pdf.subarray(start), context);
    let object: PDFObject | undefined;
    try {
      object = parser.parseObject();
    } catch {
      object = undefined;
    }
    header.lastIndex = Math.max(header.lastIndex, start + offsetOf(parser));
    if (!(object instanceof PDFRawStream) || !decodedAtLoad(object.dict)) continue;
    try {
      await decodeCapped(object, cap, tooLarge);
    } catch (error) {
      if (error instanceof InflatedTooLarge) throw error;
    }
  }
}
