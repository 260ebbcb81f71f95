import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFObject, PDFRawStream, PDFString } from 'pdf-lib';
import { FACTURX_FILENAME } from './facturx';
import { EINVOICE_XML_MAX_BYTES, EINVOICE_XML_MAX_LABEL } from './xml-size';
import { checkStreamsDecodedAtLoad, decodeCapped } from './pdf-streams';

export { InflatedTooLarge } from './pdf-streams';

/** The names under which hybrid invoices carry their XML: Factur-X, ZUGFeRD 2 and 1, XRechnung in ZUGFeRD. */
const XML_NAMES = [FACTURX_FILENAME, 'zugferd-invoice.xml', 'ZUGFeRD-invoice.xml', 'xrechnung.xml'];

export type EmbeddedInvoice = {
  /** The attachment's name, e.g. `factur-x.xml`. */
  name: string;
  /** Its bytes decoded as UTF-8 (what the EN 16931 syntaxes are written in). */
  xml: string;
  bytes: Uint8Array;
  /** `/Alternative`, `/Data`… as written on the file specification, if any. */
  relationship: string | undefined;
};

export const NOT_A_PDF = 'Le fichier n’est pas un PDF lisible';

const EMBEDDED_TOO_LARGE = `la facture jointe au PDF dépasse ${EINVOICE_XML_MAX_LABEL} une fois décompressée ; elle n’a pas été lue`;
const STRUCTURE_TOO_LARGE = `le PDF contient un flux qui dépasse ${EINVOICE_XML_MAX_LABEL} une fois décompressé ; il n’a pas été lu`;

const text = (value: PDFObject | undefined): string | undefined =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;

/** The (name, file specification) pairs of a name tree, leaves and kids alike (Kids are followed to any depth). */
function namePairs(doc: PDFDocument, node: PDFDict | undefined, seen = new Set<PDFDict>()): [string, PDFDict][] {
  if (!node || seen.has(node)) return [];
  seen.add(node);
  const pairs: [string, PDFDict][] = [];
  const names = node.lookup(PDFName.of('Names'));
  if (names instanceof PDFArray) {
    for (let i = 0; i + 1 < names.size(); i += 2) {
      const name = text(names.lookup(i));
      const spec = names.lookup(i + 1);
      if (name !== undefined && spec instanceof PDFDict) pairs.push([name, spec]);
    }
  }
  const kids = node.lookup(PDFName.of('Kids'));
  if (kids instanceof PDFArray) {
    for (let i = 0; i < kids.size(); i += 1) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) pairs.push(...namePairs(doc, kid, seen));
    }
  }
  return pairs;
}

/** The file specifications of a PDF: its associated files (/AF) first, then its EmbeddedFiles name tree. */
function fileSpecs(doc: PDFDocument): [string, PDFDict][] {
  const specs: [string, PDFDict][] = [];
  const af = doc.catalog.lookup(PDFName.of('AF'));
  if (af instanceof PDFArray) {
    for (let i = 0; i < af.size(); i += 1) {
      const spec = af.lookup(i);
      if (!(spec instanceof PDFDict)) continue;
      const name = text(spec.lookup(PDFName.of('UF'))) ?? text(spec.lookup(PDFName.of('F')));
      if (name !== undefined) specs.push([name, spec]);
    }
  }
  const names = doc.catalog.lookup(PDFName.of('Names'));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of('EmbeddedFiles')) : undefined;
  specs.push(...namePairs(doc, tree instanceof PDFDict ? tree : undefined));
  return specs;
}

/** An embedded file's bytes, decoded under the cap. */
async function embeddedBytes(spec: PDFDict): Promise<Uint8Array | undefined> {
  const ef = spec.lookup(PDFName.of('EF'));
  if (!(ef instanceof PDFDict)) return undefined;
  const stream = ef.lookup(PDFName.of('UF')) ?? ef.lookup(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return undefined;
  return decodeCapped(stream, EINVOICE_XML_MAX_BYTES, EMBEDDED_TOO_LARGE);
}

/**
 * The structured invoice a hybrid PDF carries (Factur-X, ZUGFeRD): its `factur-x.xml` (or ZUGFeRD/XRechnung name),
 * byte for byte as embedded; undefined when the PDF carries none. Throws a French message when the file is no PDF,
 * and InflatedTooLarge when the invoice, or a stream pdf-lib decodes while loading, would pass EINVOICE_XML_MAX_BYTES.
 * Reads only: nothing in the PDF is run, and the XML is returned unparsed for the caller to validate.
 */
export async function readFacturX(pdf: Uint8Array): Promise<EmbeddedInvoice | undefined> {
  await checkStreamsDecodedAtLoad(pdf, EINVOICE_XML_MAX_BYTES, STRUCTURE_TOO_LARGE);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  } catch {
    throw new Error(NOT_A_PDF);
  }
  for (const wanted of XML_NAMES) {
    const found = fileSpecs(doc).find(([name]) => name.toLowerCase() === wanted.toLowerCase());
    const bytes = found && (await embeddedBytes(found[1]));
    if (!found || !bytes) continue;
    return {
      name: found[0],
      bytes,
      xml: new TextDecoder('utf-8').decode(bytes),
      relationship: found[1].get(PDFName.of('AFRelationship'))?.toString(),
    };
  }
  return undefined;
}
