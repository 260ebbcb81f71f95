import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultDocumentTemplate, documentTemplateSchema, TEMPLATE_ELEMENT_TYPES } from '../../src/shared/schemas/template';
import { customerInputSchema } from '../../src/shared/schemas/customer';
import { listFiltersSchema, pageWindow } from '../../src/shared/schemas/filters';
import { documentInputSchema } from '../../src/shared/schemas/document';
import { appSettingsSchema, defaultAppSettings } from '../../src/shared/schemas/settings';
import { FONT_SIZE_OPTIONS, FONT_WEIGHT_OPTIONS } from '../../src/shared/schemas/style';
import { formatDocumentNumber } from '../../src/shared/numbering';
import { defined } from '../../src/shared/defined';

z.config(z.locales.fr());

describe('application settings', () => {
  it('defaults to SPEC §9: EUR, after, space, "," decimal, "" thousand, precision 2', () => {
    expect(defaultAppSettings().currency_format).toEqual({
      currency: 'EUR',
      currency_position: 'after',
      use_space: true,
      decimal: ',',
      thousand: '',
      precision: 2,
    });
    expect(appSettingsSchema.safeParse({ theme: 'sepia' }).success).toBe(false);
  });
});

describe('document template', () => {
  const template = defaultDocumentTemplate();
  it('has every SPEC element type and table column type', () => {
    expect(TEMPLATE_ELEMENT_TYPES).toEqual([
      'document_name',
      'logo',
      'icon',
      'document_info',
      'organization',
      'customer',
      'shipping',
      'identifications',
      'additional_info',
      'text',
      'document_number',
      'page_number',
      'separator',
      'header_note',
      'footer_note',
    ]);
    expect(template.table.cols.map((c) => c.type)).toContain('total_price');
  });
  it('numbers invoices F2026-0001 by default, and customers CL-00001', () => {
    expect(formatDocumentNumber(template.numbering.invoice, 1, { date: '2026-11-22' })).toBe('F2026-0001');
    expect(template.customer_numbering).toEqual({ prefix: 'CL', separator: '-', digit_count: 5 });
  });
  it('round-trips through JSON and validates what it produced', () => {
    expect(documentTemplateSchema.parse(JSON.parse(JSON.stringify(template)))).toEqual(template);
  });
  it('refuses an unknown element type and a bad colour', () => {
    const bad = JSON.parse(JSON.stringify(template));
    bad.header[0].columns[0].elements.push({ type: 'video' });
    expect(documentTemplateSchema.safeParse(bad).success).toBe(false);
    const badColour = JSON.parse(JSON.stringify(template));
    badColour.table.style.thead.background_color = 'rouge';
    expect(documentTemplateSchema.safeParse(badColour).error?.issues[0]?.message).toBe('Couleur attendue au format #RRGGBB');
  });
  it('lists SPEC’s option lists', () => {
    expect(FONT_SIZE_OPTIONS[0]).toEqual({ value: 'default', label: 'Par défaut' });
    expect(FONT_SIZE_OPTIONS.at(-1)).toEqual({ value: 100, label: '100 px' });
    expect(FONT_SIZE_OPTIONS).toHaveLength(92);
    expect(FONT_WEIGHT_OPTIONS.map((o) => o.value)).toEqual(['default', '100', '200', '300', '400', '500', '600', '700', '800', '900']);
  });
});

describe('customer', () => {
  it('accepts a French company with a valid SIRET and VAT number, normalising the VAT number', () => {
    const c = customerInputSchema.parse({ name: 'Danone', business_id: '552 032 534 00646', vat_number: 'fr 27 552032534' });
    expect(c).toMatchObject({
      type: 'company',
      vat_number: 'FR27552032534',
      maturity: 30,
      currency: 'EUR',
      address: { country: 'France' },
    });
  });
  it.each([
    [{ name: '' }, 'Le nom du client est obligatoire'],
    [{ name: 'X', business_id: '552032535' }, 'SIREN invalide : la clé de contrôle ne correspond pas'],
    [{ name: 'X', vat_number: 'FR00552032534' }, 'Numéro de TVA invalide : la clé ne correspond pas au SIREN'],
    [{ name: 'X', email: 'pas@' }, 'Adresse e-mail du client invalide'],
    [{ name: 'X', type: 'individual', business_id: '552032534' }, 'Un particulier n’a pas de SIREN/SIRET'],
    [{ name: 'X', maturity: -5 }, 'Délai de paiement : 0 jour au moins'],
  ])('refuses %j: %s', (input, message) => {
    const result = customerInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(defined(result.error, 'result.error').issues.map((i) => i.message)).toContain(message);
  });
});

describe('document input', () => {
  it('drops computed fields a client sends, and fills SPEC defaults', () => {
    const d = documentInputSchema.parse({
      date: '2026-11-22',
      total: 999,
      items: [{ item: 'Conseil', unit_price: 100, total: 5, subtotal: 7 }],
    });
    expect(d).not.toHaveProperty('total');
    expect(d.items[0]).toEqual({
      item: 'Conseil',
      description: '',
      quantity: 1,
      unit: 'u',
      unit_price: 100,
      discount_type: 'percent',
      discount_value: 0,
      taxes: [],
      kind: 'service',
    });
    expect(d).toMatchObject({ type: 'invoice', discount_type: 'percent', currency: 'EUR', price_mode: 'ht' });
  });
  it.each([
    [{ date: '22/11/2026' }, 'Date attendue au format AAAA-MM-JJ'],
    [{ date: '2026-11-22', items: [{ quantity: 1.23456 }] }, 'Quantité : 4 décimales au plus'],
    [{ date: '2026-11-22', items: [{ unit_price: 'cent' }] }, 'Prix unitaire : un nombre est attendu'],
    [{ date: '2026-11-22', items: [{ taxes: [{ title: 'TVA', rate: -20 }] }] }, 'Taux de taxe : il ne peut être négatif'],
    [{ date: '2026-11-22', shipping: -1 }, 'Frais de port : ils ne peuvent être négatifs'],
  ])('refuses %j: %s', (input, message) => {
    expect(defined(documentInputSchema.safeParse(input).error).issues.map((i) => i.message)).toContain(message);
  });
});

describe('list filters', () => {
  it('coerces the query string and applies CONTRACT.md defaults', () => {
    expect(listFiltersSchema.parse({})).toMatchObject({ page: 1, per_page: 10, sort_by: 'date', sort_order: 'desc' });
    const f = listFiltersSchema.parse({
      page: '3',
      per_page: '25',
      min_amount: '100.5',
      max_amount: '',
      type: 'estimate',
      period: 'this_quarter',
    });
    expect(f).toMatchObject({ page: 3, per_page: 25, min_amount: 100.5, max_amount: undefined, type: 'estimate', period: 'this_quarter' });
    expect(pageWindow(f)).toEqual({ offset: 50, limit: 25 });
  });
  it.each([{ per_page: '1000' }, { page: '0' }, { sort_by: 'password' }, { min_amount: 'beaucoup' }, { type: 'facture' }])(
    'refuses %j',
    (q) => {
      expect(listFiltersSchema.safeParse(q).success).toBe(false);
    },
  );
});
