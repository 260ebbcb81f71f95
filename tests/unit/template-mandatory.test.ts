import { describe, expect, it } from 'vitest';
import { defaultDocumentTemplate, type DocumentTemplate } from '../../src/shared/schemas/template';
import { applyPreset, TEMPLATE_PRESETS } from '../../src/shared/template-presets';
import { missingMandatoryParts } from '../../src/shared/template-mandatory';
import { defined } from '../../src/shared/defined';

const without = (change: (t: DocumentTemplate) => void): DocumentTemplate => {
  const template = defaultDocumentTemplate();
  change(template);
  return template;
};
const dropElement = (t: DocumentTemplate, type: string) => {
  for (const row of [...t.header, ...t.footer])
    for (const column of row.columns) column.elements = column.elements.filter((e) => e.type !== type);
};
const hide = (t: DocumentTemplate, type: string) => {
  defined(t.table.cols.find((c) => c.type === type)).visible = false;
};
const messages = (t: DocumentTemplate) => missingMandatoryParts(t).map((m) => m.message);

describe('missingMandatoryParts: what a template may not drop from invoices and credit notes (CGI art. 242 nonies A)', () => {
  it('finds nothing missing in the default template and the three ready-made ones', () => {
    expect(missingMandatoryParts(defaultDocumentTemplate())).toEqual([]);
    for (const preset of TEMPLATE_PRESETS) expect(missingMandatoryParts(applyPreset(defaultDocumentTemplate(), preset.id))).toEqual([]);
  });

  it('names each missing part with one French sentence', () => {
    expect(messages(without((t) => dropElement(t, 'customer')))).toEqual([
      'Le modèle doit garder le bloc du client (mention obligatoire sur les factures)',
    ]);
    expect(messages(without((t) => dropElement(t, 'organization')))).toEqual([
      'Le modèle doit garder le bloc de l’entreprise (mention obligatoire sur les factures)',
    ]);
    expect(messages(without((t) => hide(t, 'vat')))).toEqual([
      'Le modèle doit garder la colonne de TVA (mention obligatoire sur les factures)',
    ]);
    expect(
      messages(
        without((t) => {
          hide(t, 'unit_price');
          hide(t, 'quantity_unit');
          hide(t, 'description');
        }),
      ),
    ).toEqual([
      'Le modèle doit garder la colonne de désignation (mention obligatoire sur les factures)',
      'Le modèle doit garder la colonne de quantité (mention obligatoire sur les factures)',
      'Le modèle doit garder la colonne du prix unitaire (mention obligatoire sur les factures)',
    ]);
    expect(
      messages(
        without((t) => {
          t.table.totals.subtotal = false;
          t.table.totals.taxes = false;
          t.table.totals.total = false;
        }),
      ),
    ).toEqual([
      'Le modèle doit garder le montant de TVA par taux (mention obligatoire sur les factures)',
      'Le modèle doit garder le total HT (mention obligatoire sur les factures)',
      'Le modèle doit garder le total TTC (mention obligatoire sur les factures)',
    ]);
  });

  it('reads the number, the date and the due date from the document info flags, the number also from its own element', () => {
    const flags = (t: DocumentTemplate) => {
      for (const row of t.header)
        for (const column of row.columns)
          for (const e of column.elements)
            if (e.type === 'document_info') Object.assign(e.display, { document_number: false, date: false, maturity: false });
    };
    expect(missingMandatoryParts(without(flags)).map((m) => m.key)).toEqual(['number', 'date', 'maturity']);
    // The number alone, as its own element in the header, keeps it.
    const numbered = without((t) => {
      flags(t);
      defined(t.header[0]).columns[0]?.elements.push({ type: 'document_number' });
    });
    expect(missingMandatoryParts(numbered).map((m) => m.key)).toEqual(['date', 'maturity']);
    // Hiding a column the law does not ask for is allowed.
    expect(missingMandatoryParts(without((t) => hide(t, 'position')))).toEqual([]);
  });
});
