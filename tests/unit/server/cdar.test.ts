import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CdarMessage, writeCdar } from '../../../src/server/einvoice/cdar';
import { readCdar } from '../../../src/server/einvoice/cdar-read';
import { validateCdar } from '../../../src/server/einvoice/cdar-validate';

const EXAMPLES = path.resolve(import.meta.dirname, '../../fixtures/cdar');

const buyerMessage = (status: CdarMessage['status']): CdarMessage => ({
  id: `F-2026-1_${status.code}_20261102100000`,
  name: `Statut ${status.code}`,
  at: new Date('2026-11-02T09:00:00Z'),
  issuer: { siren: '552032534', name: 'Acheteur SAS', role: 'BY' },
  recipient: { siren: '732829320', name: 'Vendeur SARL', role: 'SE', address: '732829320' },
  toTaxAuthority: false,
  invoice: { number: 'F-2026-1', date: '2026-10-30', typeCode: 380, sellerSiren: '732829320' },
  status,
});

describe('lifecycle messages (CDAR D22B) against the schema and BR-FR-CDV', () => {
  it('the validator passes the FNFE’s own examples and fails a broken one', async () => {
    for (const file of ['UC1_F202500003_07-CDV-212_Encaissee.xml', 'UC4_F202500006_04-CDV-207_En_litige.xml']) {
      expect(await validateCdar(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'))).toEqual({ problems: [], asserts: [] });
    }
    const broken = fs
      .readFileSync(path.join(EXAMPLES, 'UC4_F202500006_04-CDV-207_En_litige.xml'), 'utf8')
      .replace('<ram:ReasonCode>TX_TVA_ERR</ram:ReasonCode>', '<ram:ReasonCode>PAS_CONTENT</ram:ReasonCode>');
    const result = await validateCdar(broken);
    expect(result.asserts.filter((a) => a.flag === 'fatal').map((a) => a.rule)).toContain('BR-FR-CDV-CL-09_MDT-113_207');
  }, 60_000); // the first run loads SaxonJS, the schema and the rules

  it.each([
    { code: 205, label: 'Approuvée' },
    { code: 210, label: 'Refusée', reasonCode: 'CMD_ERR', reason: 'Commande inconnue' },
    { code: 207, label: 'En litige', reasonCode: 'QTE_ERR', reason: 'Quantité livrée : 8' },
  ])('a buyer’s $code ($label) is valid and reads back', async (status) => {
    const xml = writeCdar(buyerMessage(status));
    expect(await validateCdar(xml)).toEqual({ problems: [], asserts: [] });
    expect(await readCdar(xml)).toEqual([
      {
        invoiceNumber: 'F-2026-1',
        invoiceDate: '2026-10-30',
        issuerSiren: '732829320',
        code: status.code,
        reasonCode: status.reasonCode ?? '',
        reason: status.reason ?? '',
        date: '2026-11-02',
      },
    ]);
  });

  it('a seller’s 212 « Encaissée » carries the amount received per VAT rate, to the buyer and the PPF', async () => {
    const message: CdarMessage = {
      ...buyerMessage({ code: 212, label: 'Encaissée' }),
      issuer: { siren: '552032534', name: 'Vendeur SAS', role: 'SE' },
      recipient: { siren: '732829320', name: 'Client SARL', role: 'BY', address: '732829320' },
      toTaxAuthority: true,
      invoice: { number: 'F-2026-7', date: '2026-10-30', typeCode: 380, sellerSiren: '552032534' },
      cashed: { currency: 'EUR', lines: [{ amount: '960.00', rate: '20.00' }] },
    };
    const xml = writeCdar(message);
    expect(await validateCdar(xml)).toEqual({ problems: [], asserts: [] });
    // Without its amounts it breaks BR-FR-CDV-14.
    const bare = await validateCdar(writeCdar({ ...message, cashed: undefined }));
    expect(bare.asserts.map((a) => a.rule)).toContain('BR-FR-CDV-14_MDT-207');
  });
});
