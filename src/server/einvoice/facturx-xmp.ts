/** The Factur-X XMP namespace (the same URN for every profile of Factur-X 1.0). */
export const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/** What the PDF says of itself, written identically in the Info dictionary and in the XMP (PDF/A-3 §6.6.3). */
export type PdfDescription = {
  title: string;
  author: string;
  subject: string;
  keywords: string;
  creatorTool: string;
  producer: string;
  /** Both creation and modification: the document's issue, never the clock (the archive is hashed). */
  date: Date;
  /** `uuid:…`, the same identity as the trailer's /ID. */
  documentId: string;
  lang: string;
};

const escapeXml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** XMP dates are ISO 8601 with their zone; whole seconds, as the Info dictionary's dates carry no more. */
export const xmpDate = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;

/** The description of the fx: properties that PDF/A requires for any schema it does not predefine. */
const fxProperty = (name: string, description: string) => `
            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>${name}</pdfaProperty:name>
              <pdfaProperty:valueType>Text</pdfaProperty:valueType>
              <pdfaProperty:category>external</pdfaProperty:category>
              <pdfaProperty:description>${description}</pdfaProperty:description>
            </rdf:li>`;

/**
 * The XMP packet of a Factur-X PDF/A-3B, EN 16931 profile: PDF/A identification, the Dublin Core / XMP / PDF
 * properties mirroring the Info dictionary, the Factur-X extension schema description and its four properties.
 */
export function facturXXmp(d: PdfDescription): string {
  const date = xmpDate(d.date);
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(d.title)}</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>${escapeXml(d.author)}</rdf:li></rdf:Seq></dc:creator>
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(d.subject)}</rdf:li></rdf:Alt></dc:description>
      <dc:language><rdf:Bag><rdf:li>${escapeXml(d.lang)}</rdf:li></rdf:Bag></dc:language>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdf:Producer>${escapeXml(d.producer)}</pdf:Producer>
      <pdf:Keywords>${escapeXml(d.keywords)}</pdf:Keywords>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${escapeXml(d.creatorTool)}</xmp:CreatorTool>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
      <xmpMM:DocumentID>${escapeXml(d.documentId)}</xmpMM:DocumentID>
    </rdf:Description>
    <rdf:Description rdf:about=""
        xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>${fxProperty('DocumentFileName', 'The name of the embedded XML document')}${fxProperty(
                'DocumentType',
                'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER',
              )}${fxProperty('Version', 'The actual version of the standard applying to the embedded XML document')}${fxProperty(
                'ConformanceLevel',
                'The conformance level of the embedded XML document',
              )}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
      <fx:Version>1.0</fx:Version>
      <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
