import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  type PDFRef,
  PDFString,
} from 'pdf-lib';
import { artefactsDir } from './artefacts';
import { facturXXmp, type PdfDescription } from './facturx-xmp';
import { parisDateOf } from '../../shared/paris-date';

export const FACTURX_FILENAME = 'factur-x.xml';
/**
 * Factur-X 1.0.07 (§ "data relationship") lets the XML be `Data`, `Source` or `Alternative`; for the BASIC, EN 16931
 * and EXTENDED profiles, whose XML is a complete invoice equivalent to the PDF, the French and German practice (and
 * the reference implementations) is `Alternative`; `Data` is kept for MINIMUM and BASIC WL, which are not invoices.
 */
export const FACTURX_RELATIONSHIP = 'Alternative';
const PRODUCER = 'Facturier (pdf-lib 1.17.1)';
const CREATOR_TOOL = 'Facturier';

/** What the Factur-X PDF says of the document it carries: taken from the issued document, never from the clock. */
export type FacturXInfo = {
  type: 'invoice' | 'credit';
  number: string;
  /** The seller's name: the author of the PDF. */
  seller: string;
  /** When the document was issued: the PDF's creation and modification dates, and the attachment's. */
  issuedAt: Date;
  /** The date printed on the document (YYYY-MM-DD), which the subject repeats; the day of `issuedAt` when absent. */
  date?: string;
  /** Defaults to the title Chromium printed (the share page's: type, number and seller). */
  title?: string;
  /** BCP 47; the product's documents are in French. */
  lang?: string;
};

const TYPE_WORD = { invoice: 'Facture', credit: 'Avoir' } as const;

let icc: Uint8Array | undefined;
/** The sRGB profile of the output intent (src/server/einvoice/icc/README.md says where it comes from). */
function srgbProfile(): Uint8Array {
  icc ??= fs.readFileSync(path.join(path.dirname(artefactsDir), 'icc', 'sRGB.icc'));
  return icc;
}

const dictOf = (object: PDFObject | undefined): PDFDict | undefined =>
  object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;

/** Actions PDF/A-3 §6.6.1 forbids; none is expected from Chromium's print, any is refused rather than shipped. */
const FORBIDDEN_ACTIONS = new Set([
  '/JavaScript',
  '/Launch',
  '/Sound',
  '/Movie',
  '/ResetForm',
  '/ImportData',
  '/Hide',
  '/Rendition',
  '/Trans',
  '/SetOCGState',
  '/GoTo3DView',
]);

/**
 * What keeps the printed PDF from being PDF/A-3B and cannot be repaired here: encryption, JavaScript and forbidden
 * actions, additional actions, fonts whose program is not embedded. An empty answer: it can be made PDF/A.
 */
export function pdfAObstacles(doc: PDFDocument): string[] {
  const found = new Set<string>();
  if (doc.isEncrypted || doc.context.trailerInfo.Encrypt) found.add('un chiffrement');
  const names = dictOf(doc.catalog.lookup(PDFName.of('Names')));
  if (names?.has(PDFName.of('JavaScript'))) found.add('du JavaScript');
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = dictOf(object);
    if (!dict) continue;
    const action = dict.get(PDFName.of('S'))?.toString();
    if (dict.has(PDFName.of('JS')) || action === '/JavaScript') found.add('du JavaScript');
    else if (action && FORBIDDEN_ACTIONS.has(action)) found.add(`une action ${action.slice(1)}`);
    if (dict.has(PDFName.of('AA'))) found.add('des actions automatiques (AA)');
    if (dict.get(PDFName.of('Type'))?.toString() === '/Font' && !fontProgramEmbedded(doc, dict)) {
      found.add(`une police non incorporée (${dict.get(PDFName.of('BaseFont'))?.toString() ?? '?'})`);
    }
  }
  return [...found];
}

/** PDF/A-3 §6.2.11.4: every font's program is in the file; Type 3 fonts are drawn by the file itself. */
export function fontProgramEmbedded(doc: PDFDocument, font: PDFDict): boolean {
  const subtype = font.get(PDFName.of('Subtype'))?.toString();
  if (subtype === '/Type3') return true;
  if (subtype === '/Type0') {
    const descendants = font.lookup(PDFName.of('DescendantFonts'));
    if (!(descendants instanceof PDFArray) || descendants.size() === 0) return false;
    return descendants.asArray().every((d) => {
      const descendant = dictOf(doc.context.lookup(d));
      return descendant !== undefined && fontProgramEmbedded(doc, descendant);
    });
  }
  const descriptor = dictOf(font.lookup(PDFName.of('FontDescriptor')));
  return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.has(PDFName.of(key)));
}

/**
 * Repairs what PDF/A forbids but has a harmless equivalent: image interpolation (§6.2.8) turned off, annotations
 * (links) marked printable (§6.3.2). Chromium's invoices have had neither so far; a template with a link would.
 */
function repairForPdfA(doc: PDFDocument): void {
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = dictOf(object);
    if (!dict) continue;
    if (dict.get(PDFName.of('Interpolate')) === PDFBool.True) dict.set(PDFName.of('Interpolate'), PDFBool.False);
    const isAnnotation = dict.get(PDFName.of('Type'))?.toString() === '/Annot' || dict.get(PDFName.of('Subtype'))?.toString() === '/Link';
    if (isAnnotation && dict.has(PDFName.of('Rect')) && !dict.has(PDFName.of('F'))) dict.set(PDFName.of('F'), PDFNumber.of(4));
  }
}

/** The description of the PDF, in the Info dictionary and (identically) in the XMP. */
function describe(doc: PDFDocument, info: FacturXInfo, identity: string): PdfDescription {
  const word = TYPE_WORD[info.type];
  const printedTitle = doc.getTitle();
  return {
    title: info.title ?? printedTitle ?? `${word} ${info.number} · ${info.seller}`,
    author: info.seller,
    // The document's own date, not the instant of printing: a PDF printed again later must describe the same invoice.
    subject: `${word} ${info.number} du ${info.date ?? parisDateOf(info.issuedAt)} ${info.type === 'credit' ? 'émis' : 'émise'} par ${info.seller} (Factur-X EN 16931)`,
    keywords: `${word}, Factur-X, EN 16931`,
    creatorTool: CREATOR_TOOL,
    producer: PRODUCER,
    date: new Date(Math.floor(info.issuedAt.getTime() / 1000) * 1000),
    documentId: `uuid:${identity.slice(0, 8)}-${identity.slice(8, 12)}-${identity.slice(12, 16)}-${identity.slice(16, 20)}-${identity.slice(20, 32)}`,
    lang: info.lang ?? 'fr',
  };
}

/** The Info dictionary rewritten from the description (Chromium's carries its user agent and the printing time). */
function writeInfo(doc: PDFDocument, d: PdfDescription): void {
  const { context } = doc;
  const infoDict = context.obj({
    Title: PDFHexString.fromText(d.title),
    Author: PDFHexString.fromText(d.author),
    Subject: PDFHexString.fromText(d.subject),
    Keywords: PDFHexString.fromText(d.keywords),
    Creator: PDFHexString.fromText(d.creatorTool),
    Producer: PDFHexString.fromText(d.producer),
    CreationDate: PDFString.fromDate(d.date),
    ModDate: PDFString.fromDate(d.date),
  });
  const existing = context.trailerInfo.Info;
  if (existing && (existing as PDFRef).objectNumber !== undefined) context.assign(existing as PDFRef, infoDict);
  else context.trailerInfo.Info = context.register(infoDict);
}

/** factur-x.xml as an embedded, associated file of the document (PDF/A-3 §6.8, Factur-X §6.2). */
function attachXml(doc: PDFDocument, xml: Uint8Array, date: Date): PDFRef {
  const { context } = doc;
  const file = context.flateStream(xml, {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml',
    Params: {
      Size: xml.length,
      ModDate: PDFString.fromDate(date),
      CheckSum: PDFHexString.of(createHash('md5').update(xml).digest('hex')),
    },
  });
  const fileRef = context.register(file);
  const spec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(FACTURX_FILENAME),
      UF: PDFHexString.fromText(FACTURX_FILENAME),
      EF: { F: fileRef, UF: fileRef },
      Desc: PDFString.of('Factur-X : facture électronique EN 16931 (CII)'),
      AFRelationship: FACTURX_RELATIONSHIP,
    }),
  );
  const catalog = doc.catalog;
  catalog.set(PDFName.of('AF'), context.obj([spec]));
  const names = dictOf(catalog.lookup(PDFName.of('Names'))) ?? context.obj({});
  // The only embedded file: a printed invoice carries none of its own (a name tree's keys must stay sorted).
  names.set(PDFName.of('EmbeddedFiles'), context.obj({ Names: [PDFString.of(FACTURX_FILENAME), spec] }));
  catalog.set(PDFName.of('Names'), names);
  return spec;
}

/** The sRGB output intent under which Chromium's DeviceRGB colours are PDF/A (§6.2.3). */
function addOutputIntent(doc: PDFDocument): void {
  const { context } = doc;
  const profile = context.register(context.flateStream(srgbProfile(), { N: 3 }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    RegistryName: PDFString.of('http://www.color.org'),
    DestOutputProfile: profile,
  });
  doc.catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));
}

/**
 * Turns the PDF Chromium printed for an issued invoice or credit note into a Factur-X PDF/A-3B, profile EN 16931:
 * the CII embedded as `factur-x.xml` (associated file, Alternative), the XMP with the PDF/A identification and the
 * Factur-X extension schema, an sRGB output intent, the Info dictionary rewritten to match the XMP, and a trailer ID.
 * Deterministic: the same printed PDF, XML and info give the same bytes (the archive is frozen and hashed), as every
 * date and identifier comes from the document and the inputs. Throws on what PDF/A forbids and cannot be repaired.
 */
export async function toFacturX(printed: Uint8Array, xml: string, info: FacturXInfo): Promise<Uint8Array> {
  const doc = await PDFDocument.load(printed, { updateMetadata: false, ignoreEncryption: true });
  const obstacles = pdfAObstacles(doc);
  if (obstacles.length > 0) throw new Error(`Le PDF imprimé ne peut pas devenir PDF/A-3 : il contient ${obstacles.join(', ')}`);
  repairForPdfA(doc);

  const xmlBytes = new TextEncoder().encode(xml);
  // One identity for the trailer /ID and xmpMM:DocumentID: a digest of what the file is made from.
  const identity = createHash('sha256').update(printed).update(xmlBytes).update(JSON.stringify(info)).digest('hex');
  const description = describe(doc, info, identity);

  writeInfo(doc, description);
  const { context } = doc;
  const metadata = context.register(
    context.stream(new TextEncoder().encode(facturXXmp(description)), { Type: 'Metadata', Subtype: 'XML' }),
  );
  doc.catalog.set(PDFName.of('Metadata'), metadata);
  doc.catalog.set(PDFName.of('Lang'), PDFString.of(description.lang));
  attachXml(doc, xmlBytes, description.date);
  addOutputIntent(doc);
  const id = PDFHexString.of(identity.slice(0, 32));
  context.trailerInfo.ID = context.obj([id, id]);
  // PDF/A-3 rests on PDF 1.7 (ISO 32000-1); Chromium writes 1.4 headers.
  context.header = PDFHeader.forVersion(1, 7);
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}
