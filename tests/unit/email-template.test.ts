import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import {
  EMAIL_PLACEHOLDERS,
  EMAIL_TEMPLATE_TYPES,
  renderEmailTemplate,
  sampleEmailValues,
  unknownPlaceholders,
  type EmailValues,
} from '../../src/shared/email-template';
import { DEFAULT_EMAIL_TEMPLATES, defaultEmailSettings, emailSettingsSchema, smtpUrlError } from '../../src/shared/schemas/email-settings';
import { defined } from '../../src/shared/defined';

z.config(z.locales.fr());

const values: EmailValues = {
  document_type: 'facture',
  document_number: 'F2025-0042',
  customer_name: 'Martin & Fils',
  organization_name: 'Durand Conseil',
  total: '1 250,00 €',
  amount_due: '450,00 €',
  date: '15/03/2025',
  due_date: '14/04/2025',
  link: 'https://exemple.fr/share/abc',
};

describe('renderEmailTemplate', () => {
  it.each([
    ['a subject', 'Facture {document_number} de {organization_name}', 'Facture F2025-0042 de Durand Conseil'],
    ['every placeholder', EMAIL_PLACEHOLDERS.map((p) => `{${p}}`).join('|'), Object.values(values).join('|')],
    ['a placeholder twice', '{total} / {total}', '1 250,00 € / 1 250,00 €'],
    ['placeholders side by side', '{date}{due_date}', '15/03/202514/04/2025'],
    ['an unknown placeholder, left as written', 'Montant : {montant}', 'Montant : {montant}'],
    ['spaces inside braces (not a placeholder)', '{ total }', '{ total }'],
    ['an unclosed brace', 'Total {total', 'Total {total'],
    ['doubled braces around a placeholder', '{{total}}', '{1 250,00 €}'],
    ['lines kept', 'Bonjour {customer_name},\n\nMerci.', 'Bonjour Martin & Fils,\n\nMerci.'],
    ['an empty template', '', ''],
  ])('renders %s', (_label, template, expected) => {
    expect(renderEmailTemplate(template, values)).toBe(expected);
  });

  it('renders a missing value as nothing', () => {
    expect(renderEmailTemplate('Échéance : {due_date}.', {})).toBe('Échéance : .');
  });

  it('inserts values as they are, never expanding a placeholder found inside one', () => {
    expect(renderEmailTemplate('Client : {customer_name}', { customer_name: '{link} $& $1', link: 'secret' })).toBe(
      'Client : {link} $& $1',
    );
  });

  const braceless = fc.string().filter((s) => !s.includes('{') && !s.includes('}'));
  const placeholder = fc.constantFrom(...EMAIL_PLACEHOLDERS);
  const anyValues = fc.record(Object.fromEntries(EMAIL_PLACEHOLDERS.map((p) => [p, braceless])) as Record<string, fc.Arbitrary<string>>);
  /** A template as segments: brace-free text, known placeholders, and unknown ones. */
  const segment = fc.oneof(
    braceless.map((text) => ({ kind: 'text' as const, text })),
    placeholder.map((name) => ({ kind: 'known' as const, name })),
    fc
      .stringMatching(/^[a-z_]{1,12}$/)
      .filter((n) => !(EMAIL_PLACEHOLDERS as readonly string[]).includes(n))
      .map((name) => ({ kind: 'unknown' as const, name })),
  );

  it('property: no known placeholder survives rendering, and the result is the segments with their values', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 20 }), anyValues, (segments, vals) => {
        const template = segments.map((s) => (s.kind === 'text' ? s.text : `{${s.name}}`)).join('');
        const rendered = renderEmailTemplate(template, vals);
        const expected = segments
          .map((s) => (s.kind === 'text' ? s.text : s.kind === 'known' ? defined(vals[s.name], 'vals[s.name]') : `{${s.name}}`))
          .join('');
        expect(rendered).toBe(expected);
        for (const p of EMAIL_PLACEHOLDERS) expect(rendered).not.toContain(`{${p}}`);
      }),
    );
  });

  it('property: text without braces is unchanged', () => {
    fc.assert(fc.property(braceless, anyValues, (text, vals) => renderEmailTemplate(text, vals) === text));
  });

  it('property: a template of known placeholders and plain text has no unknown placeholder', () => {
    const known = fc.oneof(
      braceless,
      placeholder.map((p) => `{${p}}`),
    );
    fc.assert(fc.property(fc.array(known), (parts) => unknownPlaceholders(parts.join('')).length === 0));
  });
});

describe('unknownPlaceholders', () => {
  it('lists each unknown one once, as written', () => {
    expect(unknownPlaceholders('{montant} {total} {montant} {Total} {}')).toEqual(['{montant}', '{Total}', '{}']);
  });
});

describe('email settings schema', () => {
  it('has a French default subject and body for every type, all rendering without leftovers', () => {
    const defaults = defaultEmailSettings();
    expect(Object.keys(defaults.templates)).toEqual([...EMAIL_TEMPLATE_TYPES]);
    expect(defaults.templates.invoice.subject).toBe('Facture {document_number} de {organization_name}');
    for (const type of EMAIL_TEMPLATE_TYPES) {
      const { subject, body } = DEFAULT_EMAIL_TEMPLATES[type];
      expect(unknownPlaceholders(subject + body)).toEqual([]);
      const sample = sampleEmailValues(type, { organizationName: 'Durand Conseil' });
      expect(renderEmailTemplate(body, sample)).toMatch(/^Bonjour Martin & Fils SARL,\n[\s\S]*Durand Conseil$/);
      expect(renderEmailTemplate(subject, sample)).not.toMatch(/[{}]/);
    }
  });

  it('fills a template type missing from an older saved row with its default', () => {
    const { templates: _, ...rest } = defaultEmailSettings();
    const parsed = emailSettingsSchema.parse({ ...rest, templates: { invoice: { subject: 'Votre facture', body: 'Bonjour' } } });
    expect(parsed.templates.invoice).toEqual({ subject: 'Votre facture', body: 'Bonjour' });
    expect(parsed.templates.reminder).toEqual(DEFAULT_EMAIL_TEMPLATES.reminder);
  });

  it('names the field, the type and the placeholder when one is unknown', () => {
    const result = emailSettingsSchema.safeParse({ templates: { estimate: { subject: 'Devis {numero}', body: 'Bonjour' } } });
    expect(result.success).toBe(false);
    expect(defined(result.error, 'result.error').issues[0]).toMatchObject({
      path: ['templates', 'estimate', 'subject'],
      message: expect.stringMatching(/^Objet \(Devis\) : variable inconnue \{numero\}/),
    });
  });

  it.each([
    ['smtps://jean%40exemple.fr:s3cret@smtp.exemple.fr:465', null],
    ['smtp://smtp.exemple.fr', null],
    ['smtp://[::1]:2525', null],
    ['http://smtp.exemple.fr', /smtp:\/\/ ou smtps:\/\//],
    ['smtp.exemple.fr', /invalide/],
    ['smtp://', /nom du serveur/],
    ['smtp://h.fr:25?sendmail=true&path=/bin/sh', /« \? »/],
    ['smtp://h.fr/chemin', /chemin/],
  ])('SMTP URL %s', (url, expected) => {
    const error = smtpUrlError(url);
    if (expected === null) expect(error).toBeNull();
    else expect(error).toMatch(expected);
  });
});
