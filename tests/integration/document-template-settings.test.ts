import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { defaultDocumentTemplate, type DocumentTemplate } from '../../src/shared/schemas/template';
import { TEMPLATE_PRESETS, applyPreset } from '../../src/shared/template-presets';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const edited = (): DocumentTemplate => {
  const template = defaultDocumentTemplate();
  template.margins.first_page = { top: 2.5, bottom: 2, left: 1.8, right: 1.8 };
  template.numbering.invoice = {
    prefix: 'FA-{year}{month}-',
    suffix: '',
    digit_count: 5,
  };
  template.header.push({
    align: 'start',
    justify: 'start',
    columns: [
      {
        cols: 12,
        offset: 0,
        text_align: 'center',
        align: 'start',
        elements: [{ type: 'text', content: 'Merci pour votre confiance' }],
      },
    ],
  });
  // A column the law does not ask for (the VAT column is mandatory on invoices: see the refusals below).
  defined(template.table.cols.find((c) => c.type === 'position')).visible = false;
  template.table.style.thead = {
    background_color: '#112233',
    color: '#FFFFFF',
    font_size: 12,
    font_weight: '600',
    text_transform: 'uppercase',
  };
  return template;
};

describe('document template (PUT /api/settings?key=document, settings.update with key)', () => {
  it('saves the whole template, answers Mise à jour avec succès with it, and serves it back on both doors', async () => {
    const { session } = await registered(server.url);
    const template = edited();
    const saved = await session.rest('PUT', '/api/settings?key=document', template);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      messages: 'Mise à jour avec succès',
      data: template,
    });
    expect((await session.rest('GET', '/api/settings?key=document')).body).toEqual({ data: template });
    expect(await session.trpc().settings.get.query({ key: 'document' })).toEqual({ data: template });
  });

  it('saves through the typed client too, and leaves the application settings alone', async () => {
    const { session } = await registered(server.url);
    const before = (await session.rest('GET', '/api/settings')).body;
    const template = applyPreset(defaultDocumentTemplate(), 'moderne');
    const answer = await session.trpc().settings.update.mutate({ key: 'document', data: template });
    expect(answer).toEqual({
      messages: 'Mise à jour avec succès',
      data: template,
    });
    expect((await session.rest('GET', '/api/settings?key=document')).body.data).toEqual(template);
    expect((await session.rest('GET', '/api/settings')).body).toEqual(before);
  });

  it('fills what an older client leaves out with the defaults', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings?key=document', {
      font_family: 'Georgia',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      ...defaultDocumentTemplate(),
      font_family: 'Georgia',
    });
  });

  it('leaves another organisation unaffected', async () => {
    const { session } = await registered(server.url);
    const { session: other } = await registered(server.url);
    await session.rest('PUT', '/api/settings?key=document', edited());
    expect((await other.rest('GET', '/api/settings?key=document')).body.data).toEqual(defaultDocumentTemplate());
    const otherTemplate = {
      ...defaultDocumentTemplate(),
      font_family: 'Verdana',
    };
    await other.rest('PUT', '/api/settings?key=document', otherTemplate);
    expect((await session.rest('GET', '/api/settings?key=document')).body.data).toEqual(edited());
  });

  // biome-ignore lint/suspicious/noExplicitAny: deliberately not a DocumentTemplate — what a faulty client may send
  type Faulty = any;
  const mutate = (change: (t: Faulty) => void) => {
    const template: Faulty = defaultDocumentTemplate();
    change(template);
    return template;
  };
  it.each([
    ['a top margin of 12 cm', mutate((t) => (t.margins.first_page.top = 12)), ['Marges › première page › haut : 10 au plus']],
    [
      'a digit count of 2.5',
      mutate((t) => (t.numbering.invoice.digit_count = 2.5)),
      ['Numérotation › Facture › nombre de chiffres : Un nombre entier est attendu'],
    ],
    [
      'a bad colour',
      mutate((t) => (t.table.style.thead.color = 'rouge')),
      ['Tableau › style › en-tête du tableau › couleur : Couleur attendue au format #RRGGBB'],
    ],
    [
      'an unknown element type',
      mutate((t) => t.header[0].columns[0].elements.push({ type: 'video' })),
      [/En-tête › ligne 1 › colonne 1 › élément 3/],
    ],
    [
      'a column width of 13/12',
      mutate((t) => (t.footer[0].columns[0].cols = 13)),
      ['Pied de page › ligne 1 › colonne 1 › largeur (sur 12) : 12 au plus'],
    ],
    ['a table column over 100 %', mutate((t) => (t.table.cols[1].width = 150)), ['Tableau › colonne 2 › largeur (%) : 100 au plus']],
    [
      'a font size of 4 and an unknown fold position',
      mutate((t) => {
        t.font_size = 4;
        t.fold_line.alignment = 'top';
      }),
      ['Taille de police : 6 au moins', 'Ligne de pliage › position : Valeur non reconnue'],
    ],
  ])('refuses %s with 400, a French message naming the field, and saves nothing', async (_label, body, expected) => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings?key=document', body);
    expect(answer.status).toBe(400);
    const messages = [answer.body.messages].flat();
    expect(messages).toHaveLength(expected.length);
    expected.forEach((m, i) => {
      expect(messages[i]).toMatch(m);
    });
    expect((await session.rest('GET', '/api/settings?key=document')).body.data).toEqual(defaultDocumentTemplate());
  });

  const MANDATORY = '(mention obligatoire sur les factures)';
  it.each([
    [
      'without the customer block',
      mutate((t) => {
        t.header[1].columns[0].elements = [];
      }),
      [`Le modèle doit garder le bloc du client ${MANDATORY}`],
    ],
    [
      'with the VAT column hidden',
      mutate((t) => {
        t.table.cols.find((c: { type: string }) => c.type === 'vat').visible = false;
      }),
      [`Le modèle doit garder la colonne de TVA ${MANDATORY}`],
    ],
    [
      'without the totals',
      mutate((t) => {
        t.table.totals.subtotal = false;
        t.table.totals.taxes = false;
        t.table.totals.total = false;
      }),
      [
        `Le modèle doit garder le montant de TVA par taux ${MANDATORY}`,
        `Le modèle doit garder le total HT ${MANDATORY}`,
        `Le modèle doit garder le total TTC ${MANDATORY}`,
      ],
    ],
    [
      'without the seller, the dates and the unit price',
      mutate((t) => {
        t.header[0].columns[0].elements = [{ type: 'logo' }];
        t.header[0].columns[1].elements[1].display = { document_number: true, date: false, maturity: false };
        t.table.cols.find((c: { type: string }) => c.type === 'unit_price').visible = false;
      }),
      [
        `Le modèle doit garder le bloc de l’entreprise ${MANDATORY}`,
        `Le modèle doit garder la date du document ${MANDATORY}`,
        `Le modèle doit garder la date d’échéance ${MANDATORY}`,
        `Le modèle doit garder la colonne du prix unitaire ${MANDATORY}`,
      ],
    ],
  ])('refuses a template %s (CGI art. 242 nonies A) with 400 naming each missing part, on both doors', async (_label, body, expected) => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings?key=document', body);
    expect(answer.status).toBe(400);
    expect([answer.body.messages].flat()).toEqual(expected);
    await expect(session.trpc().settings.update.mutate({ key: 'document', data: body })).rejects.toThrow(expected[0]);
    expect((await session.rest('GET', '/api/settings?key=document')).body.data).toEqual(defaultDocumentTemplate());
  });

  it('refuses a logo image from another address (the printer and share visitors would fetch it), naming the field', async () => {
    const { session } = await registered(server.url);
    for (const url of [
      'http://127.0.0.1:30001/x.png',
      'https://evil.example/logo.png',
      '/uploads/logos/../../etc/passwd',
      '//evil.example/a.png',
    ]) {
      const template = defaultDocumentTemplate();
      const logo = defined(template.header[0]?.columns[0]?.elements[0]);
      expect(logo.type).toBe('logo');
      if (logo.type === 'logo') logo.url = url;
      const refused = await session.rest('PUT', '/api/settings?key=document', template);
      expect(refused.status).toBe(400);
      expect(refused.body.messages).toEqual([
        expect.stringContaining('Logo du modèle : seule une image envoyée dans Infos de l’entreprise est acceptée'),
      ]);
    }
    expect((await session.rest('GET', '/api/settings?key=document')).body.data).toEqual(defaultDocumentTemplate());
    const own = defaultDocumentTemplate();
    const logo = defined(own.header[0]?.columns[0]?.elements[0]);
    if (logo.type === 'logo') logo.url = '/uploads/logos/0b5e4c9e-6a43-4a0e-9a43-2f1d6f3c1b11.png';
    expect((await session.rest('PUT', '/api/settings?key=document', own)).status).toBe(200);
  });

  it('saves the default template', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings?key=document', defaultDocumentTemplate());
    expect(answer).toMatchObject({ status: 200, body: { messages: 'Mise à jour avec succès', data: defaultDocumentTemplate() } });
  });

  it('refuses an unknown key and a body that is not an object', async () => {
    const { session } = await registered(server.url);
    const unknown = await session.rest('PUT', '/api/settings?key=couleurs', defaultDocumentTemplate());
    expect(unknown).toMatchObject({
      status: 400,
      body: { messages: 'Clé de paramètres inconnue (attendu : document)' },
    });
    const notObject = await session.rest('PUT', '/api/settings?key=document', [1, 2]);
    expect(notObject.status).toBe(400);
    expect(JSON.stringify(notObject.body.messages)).not.toMatch(/expected|Invalid/);
  });

  it('still saves the application settings without a key', async () => {
    const { session } = await registered(server.url);
    const settings = (await session.rest('GET', '/api/settings')).body;
    const answer = await session.rest('PUT', '/api/settings', {
      ...settings,
      theme: 'dark',
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { messages: 'Mise à jour avec succès', data: { theme: 'dark' } },
    });
  });

  it('is 401 when logged out', async () => {
    expect((await new Session(server.url).rest('PUT', '/api/settings?key=document', defaultDocumentTemplate())).status).toBe(401);
  });

  it('accepts every ready-made template', async () => {
    const { session } = await registered(server.url);
    for (const preset of TEMPLATE_PRESETS) {
      const answer = await session.rest('PUT', '/api/settings?key=document', applyPreset(defaultDocumentTemplate(), preset.id));
      expect(answer.status).toBe(200);
    }
  });
});
