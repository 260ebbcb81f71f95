import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ARTIFACTS, newPage, screenshot, browserSuite } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { defined } from '../../src/shared/defined';

const suite = browserSuite();

/** The PDF's text, page by page, with runs of white space (including non-breaking ones) made single spaces. */
async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise; // pdf.js takes the buffer over: a copy
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((i) => ('str' in i ? i.str : ''))
        .join(' ')
        .replace(/[\s\u00a0\u202f]+/g, ' '),
    );
  }
  return pages;
}

describe('share link and PDF', () => {
  it('shows one issued document to a visitor, and prints the same document to an A4 PDF with selectable text', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const other = await issued(suite.session, { customer_id: customerId, items: [line('Document confidentiel', 1, 10)] });
    const invoice = await issued(suite.session, {
      customer_id: customerId,
      discount_type: 'percent',
      discount_value: 5,
      items: [
        line('Conseil', 3, 150, 20, { unit: 'h', discount_type: 'percent', discount_value: 10 }),
        line('Formation', 2, 87.5, 10),
        line('Livre', 4, 12.35, 5.5, { discount_type: 'amount', discount_value: 2.4, kind: 'goods' }),
      ],
    });
    expect(invoice.total).toBe(691.69);

    // A visitor without a session sees that document, and nothing of the other one.
    const { page } = await newPage(suite.browser, suite.server.url);
    await page.goto(`/share/${invoice.uuid}`);
    await page.locator('[data-render-ready="true"]').waitFor();
    await page.getByText('F2026-0002').first().waitFor();
    expect(await page.getByText('Document confidentiel').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Télécharger le PDF' }).getAttribute('href')).toBe(`/documents/download/${invoice.uuid}`);
    await screenshot(page, 'share-page');
    expect((await suite.session.rest('GET', `/api/documents/${invoice.id}`)).body.viewed_at).toMatch(/^\d{4}-/);
    await page.goto('/share/00000000-0000-4000-8000-000000000000');
    await page
      .getByRole('alert')
      .getByText(/introuvable/)
      .waitFor();
    await page.context().close();

    const response = await fetch(`${suite.server.url}/documents/download/${invoice.uuid}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('filename="Facture-F2026-0002.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'share-invoice.pdf'), bytes);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = (await pdfText(bytes)).join(' ');
    for (const expected of [
      'F2026-0002',
      'Boulangerie Martin',
      'Conseil',
      'Formation',
      'Livre',
      '627,00 €',
      '31,35 €',
      '2,46 €',
      '16,63 €',
      '76,95 €',
      '691,69 €',
      'SIRET 55203253400646',
      "Pas d'escompte pour paiement anticipé",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Document confidentiel');
    void other;
  });

  it('prints the designer’s changes on invoices issued afterwards; one issued before keeps its template', async () => {
    const customerId = (await suite.session.rest('GET', '/api/customers')).body.data[0].id as number; // the first test's
    const invoice = await issued(suite.session, { customer_id: customerId, items: [line('Audit de sécurité', 2, 450)] });
    const pdfOf = async (uuid: string = invoice.uuid) =>
      new Uint8Array(await (await fetch(`${suite.server.url}/documents/download/${uuid}`)).arrayBuffer());
    /** Where the leftmost text of page 1 starts, in points from the left edge. */
    const leftmost = async (bytes: Uint8Array) => {
      const pdf = await getDocument({ data: bytes.slice(), disableFontFace: true, verbosity: 0 }).promise;
      const items = (await (await pdf.getPage(1)).getTextContent()).items.filter((i) => 'str' in i && i.str.trim());
      return Math.min(
        ...items.map((i) => ('transform' in i ? defined((i.transform as number[])[4], '(i.transform as number[])[4]') : Infinity)),
      );
    };
    const before = await pdfOf();
    const beforeText = (await pdfText(before)).join(' ');
    expect(beforeText).toContain('Désignation');
    expect(beforeText).toContain('#');

    const template = (await suite.session.rest('GET', '/api/settings?key=document')).body.data;
    template.margins.first_page.left = 4;
    template.margins.following_pages.left = 4;
    template.header.push({ columns: [{ cols: 12, elements: [{ type: 'text', content: 'Merci pour votre confiance' }] }] });
    // The Désignation column renamed and the position column hidden (the unit price is mandatory on invoices).
    template.table.cols = template.table.cols.map((c: { type: string }) =>
      c.type === 'position' ? { ...c, visible: false } : c.type === 'description' ? { ...c, label: 'Prestation' } : c,
    );
    expect((await suite.session.rest('PUT', '/api/settings?key=document', template)).status).toBe(200);

    // The invoice issued before the change is printed as issued: its template was kept with it.
    const again = await pdfOf();
    expect((await pdfText(again)).join(' ')).toBe(beforeText);
    expect(await leftmost(again)).toBeCloseTo(await leftmost(before), 1);

    const later = await issued(suite.session, { customer_id: customerId, items: [line('Audit de sécurité', 2, 450)] });
    const after = await pdfOf(later.uuid);
    const text = (await pdfText(after)).join(' ');
    expect(text).toContain('Merci pour votre confiance');
    expect(text).toContain('Prestation');
    expect(text).not.toContain('Désignation');
    expect(text).not.toContain('#');
    // 1,5 cm ≈ 43 pt by default; 4 cm ≈ 113 pt once the designer moved the margin.
    expect(await leftmost(before)).toBeLessThan(60);
    expect(await leftmost(after)).toBeGreaterThan(105);
  });

  it('the printer’s kept page prints each document it is moved to, and a quote changed since as changed', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const quoteA = await issued(suite.session, {
      type: 'estimate',
      customer_id: customerId,
      items: [line('Élagage des tilleuls', 1, 300)],
    });
    const quoteB = await issued(suite.session, { type: 'estimate', customer_id: customerId, items: [line('Taille des haies', 2, 80)] });
    const textOf = async (uuid: string) => {
      const response = await fetch(`${suite.server.url}/documents/download/${uuid}`);
      expect(response.status).toBe(200);
      return (await pdfText(new Uint8Array(await response.arrayBuffer()))).join(' ');
    };
    // One after the other: the same warm page prints them in turn, never the one it showed before.
    const first = await textOf(quoteA.uuid);
    const second = await textOf(quoteB.uuid);
    expect(first).toContain('Élagage des tilleuls');
    expect(first).not.toContain('Taille des haies');
    expect(second).toContain('Taille des haies');
    expect(second).not.toContain('Élagage des tilleuls');
    expect(await textOf(quoteA.uuid)).toBe(first);

    // A pending quote may still change: the next PDF shows the change, nothing is kept from the one printed before.
    const current = (await suite.session.rest('GET', `/api/documents/${quoteA.id}`)).body;
    const changed = await suite.session.rest('PUT', `/api/documents/${quoteA.id}`, {
      ...current,
      items: [line('Élagage des marronniers', 1, 300)],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = await textOf(quoteA.uuid);
    expect(after).toContain('Élagage des marronniers');
    expect(after).not.toContain('Élagage des tilleuls');
  });
});
