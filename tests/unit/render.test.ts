import { describe, expect, it } from 'vitest';
import { styleToCss, mergeCss } from '../../src/client/render/style-css';
import { DRAFT_NUMBER, documentNumber, documentTitle, formattersOf } from '../../src/client/render/labels';
import { totalRows } from '../../src/client/render/totals-rows';
import { sampleDocument } from '../../src/client/render/sample-document';
import { toRenderDocument } from '../../src/client/render/to-render-document';
import type { DocumentAnswer as DocumentRecord } from '../../src/shared/schemas/document-model';
import { carriedAmounts, fitPages } from '../../src/client/render/page-flow';
import { cellText, fitColumns, shownColumns, textEm } from '../../src/client/render/table-columns';
import { documentInfoEntries } from '../../src/client/render/document-info';
import { isEmptyElement } from '../../src/client/render/elements';
import { renderContextOf } from '../../src/client/render/render-context';
import { computeTotals } from '../../src/shared/totals';
import { add, toNumber } from '../../src/shared/money';
import { paginate } from '../../src/shared/pagination';
import { defaultAppSettings } from '../../src/shared/schemas/settings';
import { defaultDocumentTemplate, documentTemplateSchema } from '../../src/shared/schemas/template';
import { styleSchema } from '../../src/shared/schemas/style';
import { blankForm, blankLine } from '../../src/client/routes/documents/editor/form-state';
import { defined } from '../../src/shared/defined';

const settings = defaultAppSettings();
const f = formattersOf(settings, 'EUR');
const nbsp = (s: string) => s.replace(/ /g, '\u00a0');

describe('styleToCss: SPEC §3 style properties in one pure mapping', () => {
  it('sets nothing for an absent style, empty colours or "default" choices', () => {
    expect(styleToCss(undefined)).toEqual({});
    expect(styleToCss({})).toEqual({});
    expect(
      styleToCss({
        color: '',
        background_color: '',
        text_transform: 'default',
        font_size: 'default',
        font_weight: 'default',
        font_style: 'default',
        border_top: { style: 'default', width: 2, color: '#000' },
      }),
    ).toEqual({});
  });

  it('maps every property', () => {
    const style = styleSchema.parse({
      border_collapse: 'collapse',
      border_spacing: 2,
      margin: { top: 1, right: 2, bottom: 3, left: 4 },
      padding: { top: 5, right: 6, bottom: 7, left: 8 },
      border_top: { style: 'solid', width: 1, color: '#D0D5DD' },
      border_right: { style: 'dotted', width: 2, color: '' },
      border_bottom: { style: 'dashed', width: 3, color: '#123' },
      border_left: { style: 'solid', width: 0.5, color: '#ABCDEF' },
      vertical_align: 'middle',
      color: '#111827',
      background_color: '#F0F2F5',
      text_align: 'right',
      text_transform: 'uppercase',
      font_size: 14,
      font_weight: '600',
      font_style: 'italic',
    });
    expect(styleToCss(style)).toEqual({
      borderCollapse: 'collapse',
      borderSpacing: '2px',
      margin: '1px 2px 3px 4px',
      padding: '5px 6px 7px 8px',
      borderTop: '1px solid #D0D5DD',
      borderRight: '2px dotted currentColor',
      borderBottom: '3px dashed #123',
      borderLeft: '0.5px solid #ABCDEF',
      verticalAlign: 'middle',
      color: '#111827',
      backgroundColor: '#F0F2F5',
      textAlign: 'right',
      textTransform: 'uppercase',
      fontSize: '14px',
      fontWeight: 600,
      fontStyle: 'italic',
    });
  });

  it('lets later styles win property by property', () => {
    expect(mergeCss({ color: 'red', padding: '1px' }, undefined, { color: 'blue' })).toEqual({ color: 'blue', padding: '1px' });
  });
});

describe('labels and formats (SPEC §9)', () => {
  it('names the document, a deposit invoice as such, and a draft by what its number will be', () => {
    expect(documentTitle({ type: 'invoice', kind: 'standard' })).toBe('Facture');
    expect(documentTitle({ type: 'invoice', kind: 'deposit' })).toBe('Facture d’acompte');
    expect(documentTitle({ type: 'credit', kind: 'standard' })).toBe('Avoir');
    expect(documentTitle({ type: 'delivery', kind: 'standard' })).toBe('Bon de livraison');
    expect(documentNumber({ number: null })).toBe(DRAFT_NUMBER);
    expect(documentNumber({ number: 'F2026-0042' })).toBe('F2026-0042');
  });

  it('formats money, dates, quantities, rates and addresses the French way', () => {
    expect(f.money(1234.5)).toBe(nbsp('1234,50 €'));
    expect(f.date('2026-03-12')).toBe('12 mars 2026');
    expect(f.shortDate('2026-03-12')).toBe('12/03/2026');
    expect(f.quantity(2)).toBe('2');
    expect(f.quantity(1.5)).toBe('1,5');
    expect(f.quantity(0.125)).toBe('0,125');
    expect(f.rate(5.5)).toBe('5,50\u202f%');
    expect(f.address({ line1: '3 place du Marché', postal_code: '69002', city: 'Lyon', country: 'France' })).toEqual([
      '3 place du Marché',
      '69002 Lyon',
    ]);
    expect(f.address({ line1: 'Rue Neuve 1', postal_code: '1000', city: 'Bruxelles', country: 'Belgique' })).toEqual([
      'Rue Neuve 1',
      '1000 Bruxelles',
      'Belgique',
    ]);
  });
});

describe('the sample document', () => {
  it('has totals consistent with the shared computeTotals, lines included', () => {
    const doc = sampleDocument();
    const again = computeTotals({
      items: doc.lines.map((l) => ({
        quantity: l.quantity,
        unit_price: l.price,
        discount_type: l.discount_type,
        discount_value: l.discount_value,
        taxes: l.taxes,
      })),
      discount_type: doc.totals.discount_type,
      discount_value: doc.totals.discount_value,
      shipping: doc.totals.shipping,
      deposits: doc.totals.deposit_invoices.map((d) => d.total),
      paid: doc.totals.paid,
    });
    expect(doc.totals).toMatchObject({
      subtotal: again.subtotal,
      discount: again.discount,
      taxes: again.taxes,
      tax: again.tax,
      shipping: again.shipping,
      total: again.total,
      paid: again.paid,
      amount_due: again.amount_due,
    });
    expect(toNumber(add(...doc.lines.map((l) => l.total)))).toBe(doc.totals.subtotal);
    expect(doc.lines.map((l) => l.total)).toEqual(again.lines.map((l) => l.gross_total));
    expect(doc.totals.total).toBe(toNumber(add(doc.totals.subtotal, -doc.totals.discount, doc.totals.tax, doc.totals.shipping)));
    expect(doc.totals.amount_due).toBe(toNumber(add(doc.totals.total, ...doc.totals.deposit_invoices.map((d) => -d.total))));
  });

  it('carries the mentions French law asks for, and repeats its lines on demand', () => {
    const doc = sampleDocument();
    expect(doc.legal_mentions).toContain("Pas d'escompte pour paiement anticipé");
    expect(doc.legal_mentions.some((m) => m.includes('40,00 €'))).toBe(true);
    expect(doc.seller.identity).toEqual([
      'Atelier Fontaine SARL',
      'Capital de 10 000 €',
      'SIRET 55203253400646',
      'RCS Paris',
      'TVA intracommunautaire FR27552032534',
    ]);
    const long = sampleDocument({ lineCount: 60 });
    expect(long.lines).toHaveLength(60);
    expect(long.lines.map((l) => l.position)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(sampleDocument({ type: 'estimate' }).totals.deposit_invoices).toEqual([]);
    expect(sampleDocument({ type: 'credit' }).legal_mentions[0]).toBe('Avoir se rapportant à la facture n° F2026-0041');
  });
});

describe('totalRows: the totals block per the template flags', () => {
  const flags = defaultDocumentTemplate().table.totals;

  it('lists subtotal, shipping, each tax group (shipping in its base), total, each deposit and what is due', () => {
    const rows = totalRows(sampleDocument(), flags, f);
    expect(rows.map((r) => r.key)).toEqual([
      'subtotal',
      'shipping',
      'tax-TVA 10\u202f%-10',
      'tax-TVA 20\u202f%-20',
      'tax-total',
      'total',
      'deposit-F2026-0038',
      'due',
    ]);
    // The lines at 20 % (5 405,00) and their part of the 45,00 of shipping, apportioned to the bases (CGI art. 267).
    expect(defined(rows.find((r) => r.key === 'tax-TVA 20\u202f%-20')).label).toBe(`TVA 20,00\u202f% sur ${nbsp('5448,09 €')}`);
    expect(rows.filter((r) => r.strong).map((r) => r.key)).toEqual(['total', 'due']);
    expect(defined(rows.find((r) => r.key === 'deposit-F2026-0038')).value).toBe(`−${nbsp('1500,00 €')}`);
  });

  it('shows a discount with the net amount, credit notes and payments, and honours each flag', () => {
    const doc = sampleDocument();
    doc.totals = { ...doc.totals, discount: 50, discount_type: 'percent', discount_value: 5, credited: 100, paid: 200 };
    expect(totalRows(doc, flags, f).map((r) => r.label)).toEqual([
      'Sous-total HT',
      'Remise 5\u202f%',
      'Total HT après remise',
      'Frais de port HT',
      expect.stringMatching(/^TVA 10,00\u202f%/),
      expect.stringMatching(/^TVA 20,00\u202f%/),
      'Total TVA',
      'Total TTC',
      'Acompte n° F2026-0038',
      'Avoirs',
      'Déjà réglé',
      'Net à payer',
    ]);
    const none = {
      subtotal: false,
      discount: false,
      taxes: false,
      shipping: false,
      total: false,
      deposits: false,
      paid: false,
      due: false,
    };
    expect(totalRows(doc, none, f).map((r) => r.key)).toEqual(['credited']);
    expect(totalRows({ ...doc, type: 'delivery' }, flags, f)).toEqual([]);
  });

  it('adds a "Total TVA" line, the sum of the rates, whenever there is VAT (CGI art. 242 nonies A)', () => {
    const doc = sampleDocument();
    const rows = totalRows(doc, flags, f);
    const taxTotal = defined(rows.find((r) => r.key === 'tax-total'));
    expect(taxTotal.label).toBe('Total TVA');
    expect(taxTotal.value).toBe(f.money(doc.totals.tax));
    expect(toNumber(add(...doc.totals.taxes.map((t) => t.amount)))).toBe(doc.totals.tax);
    const noVat = { ...doc, totals: { ...doc.totals, taxes: [], tax: 0 } };
    expect(totalRows(noVat, flags, f).map((r) => r.key)).not.toContain('tax-total');
  });
});

const record = (over: Partial<DocumentRecord> = {}): DocumentRecord =>
  ({
    id: 7,
    type: 'invoice',
    kind: 'standard',
    number: 'F2026-0007',
    date: '2026-11-02',
    maturity: '2026-12-02',
    currency: 'EUR',
    condition: 'À réception',
    header: 'En-tête',
    footer: 'Pied',
    terms: 'Avoir sur la facture n° F2026-0001 du 02/11/2026',
    note: '',
    shipping_details: '',
    additional_info: [{ key: 'Commande', value: 'BC-1' }],
    deposit_request: [],
    discount_type: 'percent',
    discount_value: 0,
    organization: {
      name: 'Atelier Fontaine',
      legal_form: 'SARL',
      siret: '55203253400646',
      address: { line1: '12 rue des Lilas', postal_code: '75011', city: 'Paris' },
      identity: ['Atelier Fontaine SARL', 'SIRET 55203253400646'],
      logo_url: '/uploads/logos/x.png',
    },
    customer: {
      name: 'Boulangerie Martin',
      number: 'CL-00001',
      type: 'company',
      business_id: '732829320',
      address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
    },
    items: [
      {
        id: 1,
        code: null,
        sku: null,
        item: 'Conseil',
        description: '',
        quantity: 3,
        unit: 'h',
        unit_price: 150,
        discount_type: 'percent',
        discount_value: 10,
        taxes: [{ title: 'TVA 20 %', rate: 20 }],
        kind: 'service',
        price: 150,
        net_price: 135,
        subtotal: 450,
        discount: 45,
        gross_total: 405,
        tax: 81,
        total: 486,
      },
    ],
    subtotal: 405,
    discount: 0,
    taxes: [{ title: 'TVA 20 %', rate: 20, taxable_amount: 405, amount: 81 }],
    tax: 81,
    shipping: 0,
    total: 486,
    deposits: 100,
    deposit_invoices: [{ id: 3, number: 'F2026-0003', date: '2026-10-01', total: 100 }],
    paid: 50,
    credited: 36,
    amount_due: 300,
    legal_mentions: ['Nature de l’opération : Prestation de services'],
    corrects: null,
    ...over,
  }) as unknown as DocumentRecord;

describe('toRenderDocument: a saved document', () => {
  it('shows an issued document as issued: snapshots, fixed mentions, the server’s amounts', () => {
    const doc = toRenderDocument({ document: record() }, { profile: { name: 'Autre nom' }, settings });
    expect(doc.seller).toMatchObject({
      name: 'Atelier Fontaine',
      identity: ['Atelier Fontaine SARL', 'SIRET 55203253400646'],
      logo_url: '/uploads/logos/x.png',
    });
    expect(doc.customer).toMatchObject({ name: 'Boulangerie Martin', number: 'CL-00001', shipping: { line1: '' } });
    expect(doc.lines).toEqual([
      {
        position: 1,
        code: '',
        sku: '',
        item: 'Conseil',
        description: '',
        quantity: 3,
        unit: 'h',
        price: 150,
        discount_type: 'percent',
        discount_value: 10,
        discount: 45,
        taxes: [{ title: 'TVA 20 %', rate: 20 }],
        total: 405,
      },
    ]);
    // Payments (50) and credit notes (36) received after issue stay outside the document; its net to pay
    // is the issued one, total minus the deposits deducted at issue.
    expect(doc.totals).toMatchObject({
      subtotal: 405,
      total: 486,
      credited: 0,
      paid: 0,
      amount_due: 386,
      deposit_invoices: [{ number: 'F2026-0003', date: '2026-10-01', total: 100 }],
    });
    expect(doc.legal_mentions).toEqual(['Nature de l’opération : Prestation de services']);
    expect(doc.terms).toContain('Avoir sur la facture n° F2026-0001');
  });

  it('renders an issued invoice with payments and credit notes exactly as before them: no Déjà réglé, no Avoirs', () => {
    const flags = defaultDocumentTemplate().table.totals;
    const before = toRenderDocument({ document: record({ paid: 0, credited: 0, amount_due: 386 }) }, { settings });
    const after = toRenderDocument({ document: record() }, { settings });
    const rows = totalRows(after, flags, f);
    expect(rows).toEqual(totalRows(before, flags, f));
    expect(rows.map((r) => r.label)).not.toContain('Déjà réglé');
    expect(rows.map((r) => r.label)).not.toContain('Avoirs');
    expect(defined(rows.find((r) => r.key === 'due')).value).toBe(f.money(386));
    expect(after.totals).toEqual(before.totals);
  });

  it('states the VAT of an invoice in dollars in euros too, at the rate kept at issue (directive 2006/112/CE art. 230)', () => {
    const flags = defaultDocumentTemplate().table.totals;
    const dollars = record({
      currency: 'USD',
      exchange_rate: '1.0825',
      taxes: [
        { title: 'TVA 20 %', rate: 20, taxable_amount: 405, amount: 81 },
        { title: 'TVA 5,5 %', rate: 5.5, taxable_amount: 100, amount: 5.5 },
      ],
      tax: 86.5,
    });
    const doc = toRenderDocument({ document: dollars }, { settings });
    // 81 / 1.0825 = 74.8268 → 74.83; 5.5 / 1.0825 = 5.0808 → 5.08: each rate rounded on its own, then summed.
    expect(doc.vat_in_base).toEqual({
      currency: 'EUR',
      rate: '1.0825',
      taxes: [
        { rate: 5.5, amount: 5.08 },
        { rate: 20, amount: 74.83 },
      ],
      total: 79.91,
    });
    const rows = totalRows(doc, flags, formattersOf(settings, 'USD'));
    const inEuros = rows.filter((r) => r.key.startsWith('vat-base'));
    expect(inEuros.map((r) => [r.label, r.value])).toEqual([
      ['TVA 5,50\u202f% en EUR', nbsp('5,08 €')],
      ['TVA 20,00\u202f% en EUR', nbsp('74,83 €')],
      ['Total TVA en EUR (1 EUR = 1,0825 USD)', nbsp('79,91 €')],
    ]);
    // In euros, or before issue (no rate kept yet), nothing more is printed.
    expect(toRenderDocument({ document: record({ exchange_rate: '1' }) }, { settings }).vat_in_base).toBeNull();
    expect(toRenderDocument({ document: record({ currency: 'USD', exchange_rate: null }) }, { settings }).vat_in_base).toBeNull();
    // Today's settings never stand in for the rate of an issued document; a draft without a rate of its own is shown at
    // the rate it would be issued at, one with its own at that one.
    const rates = [{ code: 'USD', rate: '1.2' }];
    expect(toRenderDocument({ document: record({ currency: 'USD', exchange_rate: null }) }, { settings, rates }).vat_in_base).toBeNull();
    const draftIn = (exchange_rate: string | null) =>
      toRenderDocument({ document: { ...dollars, number: null, exchange_rate } }, { settings, rates }).vat_in_base;
    expect(draftIn(null)).toMatchObject({ rate: '1.2', total: 72.08 }); // 81 / 1,2 = 67,50 and 5,5 / 1,2 = 4,58
    expect(draftIn('1.0825')).toMatchObject({ rate: '1.0825', total: 79.91 });
  });

  it('shows a draft with today’s profile and the mentions it will get', () => {
    const profile = {
      name: 'Atelier Fontaine',
      legal_form: 'SARL',
      siret: '55203253400646',
      address: { line1: '12 rue des Lilas', line2: '', postal_code: '75011', city: 'Paris', state: '', country: 'France' },
      logo_url: null,
    };
    const doc = toRenderDocument(
      { document: record({ number: null, organization: null, legal_mentions: [] } as Partial<DocumentRecord>) },
      {
        profile,
        settings,
      },
    );
    expect(doc.number).toBeNull();
    expect(doc.seller?.identity).toEqual(['Atelier Fontaine SARL', 'SIRET 55203253400646']);
    expect(doc.legal_mentions).toContain("Pas d'escompte pour paiement anticipé");
    expect(doc.legal_mentions.some((m) => m.startsWith('Indemnité forfaitaire'))).toBe(true);
  });
});

describe('toRenderDocument: the editor’s unsaved form', () => {
  it('computes the unsaved form’s totals with the shared core, typed amounts the French way', () => {
    const form = blankForm('invoice', {
      date: '2026-11-02',
      customer_id: 1,
      discount_value: '5',
      shipping: '10,5',
      items: [
        blankLine({
          item: 'Conseil',
          quantity: '3',
          unit: 'h',
          unit_price: '150',
          discount_value: '10',
          taxes: [{ title: 'TVA 20 %', rate: 20 }],
        }),
        blankLine({
          item: 'Livre',
          quantity: '4',
          unit_price: '12,35',
          discount_type: 'amount',
          discount_value: '2,4',
          taxes: [{ title: 'TVA 5,5 %', rate: 5.5 }],
        }),
        blankLine({ item: 'Brouillon', quantity: '', unit_price: 'abc' }),
      ],
    });
    const doc = toRenderDocument(
      { form },
      {
        profile: { name: 'Atelier Fontaine', legal_form: 'EI' },
        customer: { name: 'Boulangerie Martin', type: 'company' },
        settings,
      },
    );
    const expected = computeTotals({
      items: [
        { quantity: 3, unit_price: 150, discount_type: 'percent', discount_value: 10, taxes: [{ title: 'TVA 20 %', rate: 20 }] },
        { quantity: 4, unit_price: 12.35, discount_type: 'amount', discount_value: 2.4, taxes: [{ title: 'TVA 5,5 %', rate: 5.5 }] },
        {},
      ],
      discount_type: 'percent',
      discount_value: 5,
      shipping: 10.5,
    });
    expect(doc.number).toBeNull();
    expect(doc.totals).toMatchObject({
      subtotal: expected.subtotal,
      discount: expected.discount,
      taxes: expected.taxes,
      total: expected.total,
      amount_due: expected.total,
      discount_value: 5,
    });
    expect(doc.lines.map((l) => [l.quantity, l.price, l.discount, l.total])).toEqual([
      [3, 150, 45, 405],
      [4, 12.35, 2.4, 47],
      [0, 0, 0, 0],
    ]);
    expect(doc.seller?.identity).toEqual(['Atelier Fontaine EI']);
    expect(doc.customer?.name).toBe('Boulangerie Martin');
    expect(doc.legal_mentions.some((m) => m.startsWith('Indemnité forfaitaire'))).toBe(true);
  });
});

describe('franchise en base (CGI art. 293 B): nothing speaks of VAT', () => {
  const franchise = { name: 'Atelier Fontaine', legal_form: 'EI', vat_regime: 'franchise' as const };
  const form = blankForm('invoice', {
    date: '2026-11-02',
    shipping: '10',
    items: [blankLine({ item: 'Conseil', quantity: '2', unit_price: '150', taxes: [] })],
  });
  const doc = toRenderDocument({ form }, { profile: franchise, customer: { name: 'Boulangerie Martin' }, settings });

  it('the form under the franchise: no VAT on shipping, no VAT column, no VAT rows, no HT/TTC wording', () => {
    expect(doc.vat).toBe(false);
    expect(doc.totals).toMatchObject({ subtotal: 300, shipping: 10, tax: 0, taxes: [], total: 310 });
    const flags = defaultDocumentTemplate().table.totals;
    expect(totalRows(doc, flags, f).map((r) => r.label)).toEqual(['Sous-total', 'Frais de port', 'Total']);
    expect(shownColumns(defaultDocumentTemplate().table, doc.vat).map((c) => c.type)).not.toContain('vat');
    expect(doc.legal_mentions).toContain('TVA non applicable, art. 293 B du CGI');
  });

  it('a normal seller keeps the VAT column, and shipping in the VAT base', () => {
    const taxed = blankForm('invoice', {
      date: '2026-11-02',
      shipping: '10',
      items: [blankLine({ item: 'Conseil', quantity: '2', unit_price: '150', taxes: [{ title: 'TVA 20 %', rate: 20 }] })],
    });
    const normal = toRenderDocument({ form: taxed }, { profile: { ...franchise, vat_regime: 'normal' }, settings });
    expect(normal.vat).toBe(true);
    // 300 + 10 at 20 % = 62; total 372
    expect(normal.totals).toMatchObject({ tax: 62, total: 372 });
    expect(normal.totals.taxes).toEqual([{ title: 'TVA 20 %', rate: 20, taxable_amount: 310, amount: 62, shipping: 10 }]);
    expect(shownColumns(defaultDocumentTemplate().table, normal.vat).map((c) => c.type)).toContain('vat');
  });
});

describe('pages: fitting a previous layout, carried subtotals', () => {
  const pages = paginate({
    rows: [100, 100, 100, 100, 100],
    header: 300,
    footer: 50,
    totals: 100,
    margins: { first: { top: 1, bottom: 1 }, following: { top: 1, bottom: 1 } },
  });

  it('drops lines gone and puts new ones on the last page', () => {
    expect(fitPages(pages, 5).flatMap((p) => p.rows)).toEqual([0, 1, 2, 3, 4]);
    expect(fitPages(pages, 3).flatMap((p) => p.rows)).toEqual([0, 1, 2]);
    const grown = fitPages(pages, 7);
    expect(defined(grown.at(-1), 'grown.at(-1)').rows.slice(-2)).toEqual([5, 6]);
    expect(grown.flatMap((p) => p.rows)).toHaveLength(7);
  });

  it('carries the running HT amount from page to page, exactly', () => {
    const doc = sampleDocument({ lineCount: 5 });
    doc.lines = doc.lines.map((l, i) => ({ ...l, total: defined([0.1, 0.2, 0.3, 0.4, 0.5][i], '[0.1, 0.2, 0.3, 0.4, 0.5][i]') }));
    const split = [
      { ...defined(pages[0], 'pages[0]'), rows: [0, 1] },
      { ...defined(pages[0], 'pages[0]'), rows: [2, 3] },
      { ...defined(pages[0], 'pages[0]'), rows: [4] },
    ];
    expect(carriedAmounts(doc, split)).toEqual([
      { before: 0, after: 0.3 },
      { before: 0.3, after: 1 },
      { before: 1, after: 1.5 },
    ]);
  });
});

describe('table columns, document info and empty elements', () => {
  it('prints a unit price with its real decimals, up to 4, never rounded to two (CGI art. 242 nonies A)', () => {
    const line = defined(sampleDocument().lines[0]);
    const price = (p: number) => cellText('unit_price', { ...line, price: p }, f);
    expect(price(12.3456)).toBe(nbsp('12,3456 €'));
    expect(price(12.345)).toBe(nbsp('12,345 €'));
    expect(price(12.5)).toBe(nbsp('12,50 €'));
    expect(price(12)).toBe(nbsp('12,00 €'));
    expect(price(1234.5678)).toBe(nbsp('1234,5678 €'));
    expect(cellText('total_price', { ...line, total: 12.3456 }, f)).toBe(nbsp('12,35 €'));
  });

  it('keeps the visible columns in order, their widths scaled to the whole table', () => {
    const cols = shownColumns(defaultDocumentTemplate().table);
    expect(cols.map((c) => c.type)).toEqual(['position', 'description', 'quantity_unit', 'unit_price', 'vat', 'total_price']);
    expect(cols.reduce((s, c) => s + c.share, 0)).toBeCloseTo(100, 6);
    const custom = documentTemplateSchema.parse({
      table: {
        cols: [
          { type: 'description', label: 'Article' },
          { type: 'total_price', label: 'Montant', width: 25 },
        ],
      },
    });
    expect(shownColumns(custom.table).map((c) => Math.round(c.share))).toEqual([62, 38]);
  });

  it('widens an amount column too narrow for its longest value, taking the room from the description', () => {
    const cols = shownColumns(defaultDocumentTemplate().table);
    const doc = sampleDocument();
    expect(fitColumns(cols, doc.lines, f, 1000, 13.33)).toEqual(cols);
    const big = doc.lines.map((l) => ({ ...l, total: 1234567.89, price: 98765.43 }));
    const fitted = fitColumns(cols, big, f, 560, 13.33);
    const px = (type: string) =>
      (defined(
        fitted.find((c) => c.type === type),
        'fitted.find((c) => c.type === type)',
      ).share /
        100) *
      560;
    expect(px('total_price')).toBeGreaterThanOrEqual((textEm(f.money(1234567.89)) + 1.2) * 13.33 - 0.01);
    expect(px('unit_price')).toBeGreaterThanOrEqual((textEm(f.money(98765.43)) + 1.2) * 13.33 - 0.01);
    expect(px('description')).toBeLessThan((defined(cols.find((c) => c.type === 'description')).share / 100) * 560);
    expect(px('description')).toBeGreaterThanOrEqual(0.25 * 560 - 0.01);
    expect(fitted.reduce((s, c) => s + c.share, 0)).toBeCloseTo(100, 6);
  });

  it('shows the document info its flags ask for, with SPEC §9 labels', () => {
    const doc = sampleDocument({ type: 'estimate' });
    const ctx = renderContextOf(doc, defaultDocumentTemplate(), settings);
    const all = { document_number: true, date: true, maturity: true, customer_id: true, payment_method: true, total_document: true };
    const entries = documentInfoEntries({ type: 'document_info', layout: 1, display: all }, ctx);
    expect(entries.map((e) => [e.label, e.value])).toEqual([
      ['Devis n°', 'D2026-0017'],
      ['Date', '12 mars 2026'],
      ["Valide jusqu'au", '11 avril 2026'],
      ['N° client', 'CL-00012'],
      ['Règlement', 'Virement à 30 jours'],
      ['Total TTC', f.money(doc.totals.total)],
    ]);
    const delivery = renderContextOf(sampleDocument({ type: 'delivery' }), defaultDocumentTemplate(), settings);
    expect(
      documentInfoEntries({ type: 'document_info', layout: 2, display: { ...all, customer_id: false } }, delivery).map((e) => e.label),
    ).toEqual(['Livraison n°', 'Date', 'Date de livraison', 'Règlement']);
  });

  it('knows an element with nothing to show, so its row leaves no gap', () => {
    const doc = sampleDocument();
    const ctx = renderContextOf(
      { ...doc, header: '  ', customer: { ...doc.customer, shipping: doc.customer.address } },
      defaultDocumentTemplate(),
      settings,
    );
    expect(isEmptyElement({ type: 'header_note' }, ctx)).toBe(true);
    expect(isEmptyElement({ type: 'footer_note' }, ctx)).toBe(false);
    expect(isEmptyElement({ type: 'shipping' }, ctx)).toBe(true);
    expect(isEmptyElement({ type: 'text', content: '' }, ctx)).toBe(true);
    expect(isEmptyElement({ type: 'page_number' }, ctx)).toBe(false);
    expect(isEmptyElement({ type: 'shipping' }, renderContextOf(doc, defaultDocumentTemplate(), settings))).toBe(false);
  });
});
