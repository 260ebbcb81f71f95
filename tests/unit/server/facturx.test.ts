import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FACTURX_FILENAME, type FacturXInfo, fontProgramEmbedded, pdfAObstacles, toFacturX } from '../../../src/server/einvoice/facturx';
import { NOT_A_PDF, readFacturX } from '../../../src/server/einvoice/facturx-read';
import { validateEinvoice } from '../../../src/server/einvoice/validate';

// A real print of the app: an invoice issued on a test server and downloaded from /documents/download/{uuid}
// (Chromium 156, Skia/PDF), kept as a fixture so these checks run without a browser; the e2e test
// tests/e2e/facturx.test.ts does the same on a print made there and then.
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/einvoice');
const printed = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'chromium-invoice.pdf')));
const ciiSample = (n: number) => fs.readFileSync(path.join(FIXTURES, 'cii', `CII_example${n}.xml`), 'utf8');
const info: FacturXInfo = {
  type: 'invoice',
  number: 'F2026-0001',
  seller: 'Atelier Fontaine',
  issuedAt: new Date('2026-11-23T09:39:52.412Z'),
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const dictOf = (o: PDFObject | undefined) => (o instanceof PDFDict ? o : o instanceof PDFRawStream ? o.dict : undefined);
const name = (dict: PDFDict | undefined, key: string) => dict?.get(PDFName.of(key))?.toString();
const textOf = (o: PDFObject | undefined) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);
const streamText = (o: PDFObject | undefined) => {
  if (!(o instanceof PDFRawStream)) throw new Error('pas un flux');
  return new TextDecoder().decode(decodePDFRawStream(o).decode());
};

/** Every font dictionary of the file, descendants of composite fonts included. */
function fonts(doc: PDFDocument): PDFDict[] {
  const found: PDFDict[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = dictOf(object);
    if (dict && name(dict, 'Type') === '/Font') found.push(dict);
  }
  return found;
}

describe('Factur-X: a Chromium print made PDF/A-3B with its CII embedded', () => {
  it('what Chromium prints: every font embedded as a subset, no encryption, no JavaScript, no action, no trailer ID', async () => {
    const doc = await PDFDocument.load(printed, { updateMetadata: false });
    const all = fonts(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const font of all) {
      expect(fontProgramEmbedded(doc, font), name(font, 'BaseFont')).toBe(true);
      // Subsets are named XXXXXX+Name (ISO 32000-1 §9.6.4): Skia embeds only the glyphs used.
      if (name(font, 'Subtype') !== '/Type3') expect(name(font, 'BaseFont')).toMatch(/^\/[A-Z]{6}\+/);
      if (name(font, 'Subtype') === '/CIDFontType2') expect(name(font, 'CIDToGIDMap')).toBe('/Identity'); // §6.2.11.3.2
    }
    expect(pdfAObstacles(doc)).toEqual([]);
    expect(doc.context.trailerInfo.ID).toBeUndefined(); // PDF/A wants one: the conversion adds it
    expect(new TextDecoder().decode(printed.slice(0, 8))).toBe('%PDF-1.4');
  });

  it('embeds the CII byte for byte as factur-x.xml, an Alternative associated file, and reads it back valid', async () => {
    const xml = ciiSample(1);
    const started = performance.now();
    const out = await toFacturX(printed, xml, info);
    const ms = performance.now() - started;
    console.info(`Factur-X embedding: ${ms.toFixed(1)} ms (first call), ${printed.length} → ${out.length} bytes`);

    const read = await readFacturX(out);
    expect(read?.name).toBe(FACTURX_FILENAME);
    expect(read?.relationship).toBe('/Alternative');
    expect(sha256(read?.bytes ?? new Uint8Array())).toBe(sha256(new TextEncoder().encode(xml)));
    expect(read?.xml).toBe(xml);
    const validation = await validateEinvoice(read?.xml ?? '', 'cii');
    expect(validation.asserts.filter((a) => a.flag === 'fatal')).toEqual([]);
    expect(validation.ok).toBe(true);
  }, 120_000);

  it('writes the PDF/A-3B identification, the Factur-X XMP, the AF array, the output intent and the trailer ID', async () => {
    const xml = ciiSample(2);
    const out = await toFacturX(printed, xml, info);
    expect(new TextDecoder().decode(out.slice(0, 8))).toBe('%PDF-1.7');
    // §6.1.2: the header line is followed by a comment of at least four bytes above 127.
    expect([...out.slice(10, 14)].every((b) => b > 127)).toBe(true);
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    const catalog = doc.catalog;

    // Associated file: the catalog's /AF and the EmbeddedFiles name tree name the same file specification.
    const af = catalog.lookup(PDFName.of('AF'), PDFArray);
    expect(af.size()).toBe(1);
    const spec = af.lookup(0, PDFDict);
    const tree = catalog
      .lookup(PDFName.of('Names'), PDFDict)
      .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
      .lookup(PDFName.of('Names'), PDFArray);
    expect(textOf(tree.lookup(0))).toBe('factur-x.xml');
    expect(tree.lookup(1)).toBe(spec);
    expect(name(spec, 'Type')).toBe('/Filespec');
    expect(name(spec, 'AFRelationship')).toBe('/Alternative');
    expect(textOf(spec.lookup(PDFName.of('F')))).toBe('factur-x.xml');
    expect(textOf(spec.lookup(PDFName.of('UF')))).toBe('factur-x.xml');
    const ef = spec.lookup(PDFName.of('EF'), PDFDict);
    const file = ef.lookup(PDFName.of('F'));
    expect(ef.lookup(PDFName.of('UF'))).toBe(file);
    const fileDict = dictOf(file);
    expect(name(fileDict, 'Type')).toBe('/EmbeddedFile');
    expect(name(fileDict, 'Subtype')).toBe('/text#2Fxml'); // text/xml, the slash escaped in a PDF name
    const params = fileDict?.lookup(PDFName.of('Params'), PDFDict);
    expect(params?.get(PDFName.of('Size'))?.toString()).toBe(String(Buffer.byteLength(xml)));
    expect(textOf(params?.lookup(PDFName.of('ModDate')))).toBe('D:20261123093952Z');
    expect(params?.get(PDFName.of('CheckSum'))?.toString()).toBe(`<${createHash('md5').update(xml).digest('hex')}>`);

    // XMP: uncompressed (§6.6.2.1), PDF/A-3B, the Factur-X extension schema and its values, the Info mirrored.
    const metadata = catalog.lookup(PDFName.of('Metadata'));
    expect(name(dictOf(metadata), 'Subtype')).toBe('/XML');
    expect(dictOf(metadata)?.has(PDFName.of('Filter'))).toBe(false);
    const xmp = streamText(metadata);
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    for (const property of ['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel']) {
      expect(xmp).toContain(`<pdfaProperty:name>${property}</pdfaProperty:name>`);
    }
    expect(xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:Version>1.0</fx:Version>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    // The title Chromium printed (the share page's) is kept, in the Info dictionary and the XMP alike.
    const title = 'Facture F2026-0001 · Atelier Fontaine';
    expect(doc.getTitle()).toBe(title);
    expect(xmp).toContain(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>`);
    expect(doc.getAuthor()).toBe('Atelier Fontaine');
    expect(xmp).toContain('<dc:creator><rdf:Seq><rdf:li>Atelier Fontaine</rdf:li></rdf:Seq></dc:creator>');
    expect(xmp).toContain(`<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${doc.getSubject()}</rdf:li></rdf:Alt></dc:description>`);
    expect(xmp).toContain(`<pdf:Keywords>${doc.getKeywords()}</pdf:Keywords>`);
    expect(xmp).toContain(`<pdf:Producer>${doc.getProducer()}</pdf:Producer>`);
    expect(xmp).toContain(`<xmp:CreatorTool>${doc.getCreator()}</xmp:CreatorTool>`);
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-23T09:39:52.000Z');
    expect(doc.getModificationDate()?.toISOString()).toBe('2026-11-23T09:39:52.000Z');
    expect(xmp).toContain('<xmp:CreateDate>2026-11-23T09:39:52Z</xmp:CreateDate>');
    expect(xmp).toContain('<xmp:ModifyDate>2026-11-23T09:39:52Z</xmp:ModifyDate>');
    expect(textOf(catalog.lookup(PDFName.of('Lang')))).toBe('fr');

    // Output intent: GTS_PDFA1 with the shipped sRGB ICC profile (3 components).
    const intent = catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    expect(name(intent, 'S')).toBe('/GTS_PDFA1');
    const profile = intent.lookup(PDFName.of('DestOutputProfile'));
    expect(dictOf(profile)?.get(PDFName.of('N'))?.toString()).toBe('3');
    const icc = decodePDFRawStream(profile as PDFRawStream).decode();
    const shipped = fs.readFileSync(path.resolve(import.meta.dirname, '../../../src/server/einvoice/icc/sRGB.icc'));
    expect(sha256(icc)).toBe(sha256(shipped));
    expect(new TextDecoder().decode(icc.slice(12, 20))).toBe('mntrRGB '); // a display profile of RGB

    // Trailer: a document ID (two equal halves for a new file), the same as xmpMM:DocumentID; no encryption.
    const id = doc.context.trailerInfo.ID;
    expect(id).toBeInstanceOf(PDFArray);
    const [first, second] = (id as PDFArray).asArray().map(String);
    expect(first).toMatch(/^<[0-9A-F]{32}>$/i);
    expect(second).toBe(first);
    const hex = (first ?? '').slice(1, -1).toLowerCase();
    expect(xmp).toContain(`<xmpMM:DocumentID>uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-`);
    expect(doc.context.trailerInfo.Encrypt).toBeUndefined();
    expect(pdfAObstacles(doc)).toEqual([]);
    expect(doc.getPageCount()).toBe((await PDFDocument.load(printed)).getPageCount());
  });

  it('is deterministic: the same print, XML and document give the same bytes; another XML another file', async () => {
    const a = await toFacturX(printed, ciiSample(3), info);
    const b = await toFacturX(printed, ciiSample(3), info);
    expect(sha256(b)).toBe(sha256(a));
    const c = await toFacturX(printed, ciiSample(4), info);
    expect(sha256(c)).not.toBe(sha256(a));
    // The dates come from the document: embedding later gives the same file.
    const times: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const started = performance.now();
      expect(sha256(await toFacturX(printed, ciiSample(3), info))).toBe(sha256(a));
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    console.info(`Factur-X embedding, warm: median ${times[5]?.toFixed(1)} ms, max ${times[9]?.toFixed(1)} ms per document`);
  });

  it('a credit note is titled Avoir in its subject and keywords; fx:DocumentType stays INVOICE (Factur-X has no other for it)', async () => {
    const out = await toFacturX(printed, ciiSample(5), { ...info, type: 'credit', number: 'A2026-0001', title: 'Avoir A2026-0001' });
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Avoir A2026-0001');
    expect(doc.getSubject()).toBe('Avoir A2026-0001 du 2026-11-23 émis par Atelier Fontaine (Factur-X EN 16931)');
    expect(doc.getKeywords()).toBe('Avoir, Factur-X, EN 16931');
    expect(streamText(doc.catalog.lookup(PDFName.of('Metadata')))).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
  });

  it('the subject names the document’s own date, not the day it was printed', async () => {
    // Issued on the 23rd but dated the 20th, printed again on the 30th: the subject says the 20th each time.
    const dated = { ...info, date: '2026-11-20' };
    const first = await PDFDocument.load(await toFacturX(printed, ciiSample(3), dated), { updateMetadata: false });
    const later = { ...dated, issuedAt: new Date('2026-11-30T18:00:00Z') };
    const again = await PDFDocument.load(await toFacturX(printed, ciiSample(3), later), { updateMetadata: false });
    for (const doc of [first, again])
      expect(doc.getSubject()).toBe('Facture F2026-0001 du 2026-11-20 émise par Atelier Fontaine (Factur-X EN 16931)');
    expect(streamText(again.catalog.lookup(PDFName.of('Metadata')))).toContain('Facture F2026-0001 du 2026-11-20 émise');
  });

  it('escapes XML special characters of the seller in the XMP', async () => {
    const out = await toFacturX(printed, ciiSample(1), { ...info, seller: 'Dupont & Fils <SARL>' });
    const doc = await PDFDocument.load(out, { updateMetadata: false });
    expect(doc.getAuthor()).toBe('Dupont & Fils <SARL>');
    expect(streamText(doc.catalog.lookup(PDFName.of('Metadata')))).toContain('<rdf:li>Dupont &amp; Fils &lt;SARL&gt;</rdf:li>');
  });
});

describe('Factur-X: what PDF/A forbids', () => {
  it('refuses a PDF with JavaScript, naming it', async () => {
    const doc = await PDFDocument.load(printed);
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') })));
    await expect(toFacturX(await doc.save(), ciiSample(1), info)).rejects.toThrow(
      'Le PDF imprimé ne peut pas devenir PDF/A-3 : il contient du JavaScript',
    );
  });

  it('refuses a PDF whose font program is not embedded, naming the font', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Facture', { font: await doc.embedFont('Helvetica') });
    await expect(toFacturX(await doc.save(), ciiSample(1), info)).rejects.toThrow(
      'Le PDF imprimé ne peut pas devenir PDF/A-3 : il contient une police non incorporée (/Helvetica)',
    );
  });

  it('marks link annotations printable and turns image interpolation off', async () => {
    const doc = await PDFDocument.load(printed);
    const page = doc.getPage(0);
    const link = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], Border: [0, 0, 0] }));
    page.node.set(PDFName.of('Annots'), doc.context.obj([link]));
    const image = doc.context.register(
      doc.context.stream(new Uint8Array(3), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: 1,
        Height: 1,
        ColorSpace: 'DeviceRGB',
        BitsPerComponent: 8,
        Interpolate: true,
      }),
    );
    const out = await PDFDocument.load(await toFacturX(await doc.save(), ciiSample(1), info), { updateMetadata: false });
    expect(out.context.lookup(link, PDFDict).get(PDFName.of('F'))?.toString()).toBe('4');
    expect(dictOf(out.context.lookup(image))?.get(PDFName.of('Interpolate'))?.toString()).toBe('false');
  });

  it('reading: a PDF without an embedded invoice gives nothing; a file that is no PDF is refused in French', async () => {
    expect(await readFacturX(printed)).toBeUndefined();
    await expect(readFacturX(new TextEncoder().encode('<html>pas un PDF</html>'))).rejects.toThrow(NOT_A_PDF);
  });
});
