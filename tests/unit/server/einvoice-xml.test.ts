import { describe, expect, it } from 'vitest';
import { decimal4, el, escapeXml, text } from '../../../src/server/einvoice/xml-writer';
import { unitCode } from '../../../src/server/einvoice/en16931';

describe('the XML writer of the EN 16931 serialisers', () => {
  it('escapes the five special characters and drops what XML 1.0 cannot carry, keeping accents and emoji', () => {
    expect(escapeXml(`Dupont & Fils <"l'atelier">`)).toBe('Dupont &amp; Fils &lt;&quot;l&apos;atelier&quot;&gt;');
    expect(escapeXml('a\u0000b\u0007c\td\ne\uffffé\ud800 🎹')).toBe('abc\td\neé 🎹');
  });
  it('leaves out empty elements, and writes attributes escaped', () => {
    expect(text('ram:Name', '  ')).toBe('');
    expect(el('ram:Party', ['', false, null])).toBe('');
    expect(text('ram:ID', 'A&B', { schemeID: '0002', other: undefined })).toBe('<ram:ID schemeID="0002">A&amp;B</ram:ID>');
  });
  it('writes decimals without localisation, and the units people type as UN/ECE codes', () => {
    expect(decimal4(200000n)).toBe('20.00');
    expect(decimal4(55000n)).toBe('5.50');
    expect(decimal4(12345n)).toBe('1.2345');
    expect(decimal4(-15000n)).toBe('-1.50');
    expect(unitCode('Heure')).toBe('HUR');
    expect(unitCode('jours')).toBe('DAY');
    expect(unitCode('m²')).toBe('MTK');
    expect(unitCode('carton')).toBe('C62');
  });
});
