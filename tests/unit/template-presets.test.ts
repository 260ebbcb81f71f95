import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultDocumentTemplate, documentTemplateSchema } from '../../src/shared/schemas/template';
import { applyPreset, TEMPLATE_PRESETS } from '../../src/shared/template-presets';
import { templateFieldLabel, templateIssueMessages } from '../../src/shared/template-labels';
import { defined } from '../../src/shared/defined';

z.config(z.locales.fr());

describe('ready-made document templates', () => {
  it('are three, with French names', () => {
    expect(TEMPLATE_PRESETS.map((p) => p.label)).toEqual(['Classique', 'Moderne', 'Épuré']);
  });

  it.each(TEMPLATE_PRESETS.map((p) => [p.label, p.id] as const))('%s validates as a document template, strictly', (_label, id) => {
    const preset = defined(TEMPLATE_PRESETS.find((p) => p.id === id));
    const result = documentTemplateSchema.safeParse(preset.layout);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
    // Nothing in the preset is silently dropped by the schema (a misspelt option would be).
    const parsed = defined(result.data, 'result.data');
    for (const key of Object.keys(preset.layout) as (keyof typeof preset.layout)[]) expect(parsed).toHaveProperty(key);
    expect(JSON.stringify(parsed.header)).toContain('"type"');
  });

  it.each(TEMPLATE_PRESETS.map((p) => [p.label, p.id] as const))(
    '%s has visible table columns summing to 100 %%, and a page number in the footer',
    (_label, id) => {
      const template = applyPreset(defaultDocumentTemplate(), id);
      const widths = template.table.cols.filter((c) => c.visible).reduce((sum, c) => sum + (c.width ?? 0), 0);
      expect(widths).toBe(100);
      expect(JSON.stringify(template.footer)).toContain('page_number');
      expect(JSON.stringify(template.header)).toContain('customer');
    },
  );

  it('keeps the numbering, customer numbering and predefined texts of the current template', () => {
    const current = defaultDocumentTemplate();
    current.numbering.invoice = {
      prefix: 'FAC-',
      suffix: '-{year}',
      digit_count: 6,
    };
    current.customer_numbering.prefix = 'C';
    current.texts.invoice.footer = 'Merci de votre confiance';
    current.margins.first_page.top = 4;
    const next = applyPreset(current, 'epure');
    expect(next.numbering).toEqual(current.numbering);
    expect(next.customer_numbering).toEqual(current.customer_numbering);
    expect(next.texts).toEqual(current.texts);
    expect(next.margins.first_page.top).toBe(2);
    expect(next.font_family).toBe('Roboto');
  });

  it('are different looks', () => {
    const looks = TEMPLATE_PRESETS.map((p) => JSON.stringify(applyPreset(defaultDocumentTemplate(), p.id)));
    expect(new Set(looks).size).toBe(3);
  });
});

describe('template field labels', () => {
  it('name a field by its whole path', () => {
    expect(templateFieldLabel(['margins', 'following_pages', 'left'])).toBe('Marges › pages suivantes › gauche');
    expect(templateFieldLabel(['header', 1, 'columns', 0, 'elements', 2, 'style', 'padding', 'top'])).toBe(
      'En-tête › ligne 2 › colonne 1 › élément 3 › style › marge intérieure › haut',
    );
    expect(templateFieldLabel(['texts', 'estimate', 'footer'])).toBe('Textes prédéfinis › Devis › pied de page');
    expect(templateFieldLabel(['table', 'style', 'tbody', 'even', 'border_bottom', 'width'])).toBe(
      'Tableau › style › lignes › paires › bordure basse › épaisseur',
    );
  });
  it('turn Zod issues into one French message per field', () => {
    const template = defaultDocumentTemplate();
    const bad = { ...template, line_height: 5, customer_numbering: { ...template.customer_numbering, separator: '----' } };
    const result = documentTemplateSchema.safeParse(bad);
    expect(templateIssueMessages(defined(result.error, 'result.error').issues)).toEqual([
      'Numérotation des clients › séparateur : 3 caractères au plus',
      'Interligne : 3 au plus',
    ]);
  });
});
