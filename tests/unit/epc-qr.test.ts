import { describe, expect, it } from 'vitest';
import { EPC_MAX_BYTES, epcTransferPayload, type TransferRequest } from '../../src/shared/epc-qr';

const request: TransferRequest = {
  currency: 'EUR',
  amount: 1234.5,
  holder: 'Atelier Dupont SARL',
  iban: 'FR76 3000 6000 0112 3456 7890 189',
  bic: 'bnpa frpp xxx',
  reference: 'RF26FA20260001',
};

const payloadOf = (changes: Partial<TransferRequest>) => {
  const result = epcTransferPayload({ ...request, ...changes });
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.payload;
};

describe('EPC069-12 credit transfer payload', () => {
  it('writes the elements a line, in order, the reference as structured remittance and no free text', () => {
    expect(payloadOf({})).toBe(
      [
        'BCD',
        '002',
        '1',
        'SCT',
        'BNPAFRPPXXX',
        'Atelier Dupont SARL',
        'FR7630006000011234567890189',
        'EUR1234.50',
        '',
        'RF26FA20260001',
      ].join('\n'),
    );
  });

  it('answers the values as written, for a page to show beside the code', () => {
    expect(epcTransferPayload({ ...request, holder: ' Atelier\nDupont SARL ' })).toMatchObject({
      ok: true,
      holder: 'Atelier Dupont SARL',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPPXXX',
      amount: '1234.50',
    });
  });

  it('puts the text in the unstructured remittance when there is no reference', () => {
    expect(payloadOf({ reference: null, text: 'Facture\nFA-2026-0001' })).toBe(
      'BCD\n002\n1\nSCT\nBNPAFRPPXXX\nAtelier Dupont SARL\nFR7630006000011234567890189\nEUR1234.50\n\n\nFacture FA-2026-0001',
    );
    expect(payloadOf({ reference: null })).toBe(
      'BCD\n002\n1\nSCT\nBNPAFRPPXXX\nAtelier Dupont SARL\nFR7630006000011234567890189\nEUR1234.50',
    );
  });

  it('leaves out a BIC it cannot use (optional in version 002), never writes it wrong', () => {
    expect(payloadOf({ bic: '' }).split('\n')[4]).toBe('');
    expect(payloadOf({ bic: 'BNPA-FR' }).split('\n')[4]).toBe('');
  });

  it('writes amounts with a point and two decimals, rounded to the cent, from 0.01 to 999 999 999.99', () => {
    expect(payloadOf({ amount: 0.01 }).split('\n')[7]).toBe('EUR0.01');
    expect(payloadOf({ amount: '999999999.99' }).split('\n')[7]).toBe('EUR999999999.99');
    expect(payloadOf({ amount: 12 }).split('\n')[7]).toBe('EUR12.00');
    expect(payloadOf({ amount: '0.005' }).split('\n')[7]).toBe('EUR0.01');
  });

  it.each([
    ['a currency other than the euro', { currency: 'USD' }, 'currency'],
    ['nothing due', { amount: 0 }, 'amount'],
    ['a credit (negative amount)', { amount: -10 }, 'amount'],
    ['less than a cent', { amount: '0.004' }, 'amount'],
    ['more than the code holds', { amount: '1000000000' }, 'amount'],
    ['an IBAN with a wrong check digit', { iban: 'FR76 3000 6000 0112 3456 7890 188' }, 'iban'],
    ['an IBAN cut short', { iban: 'FR76 3000 6000' }, 'iban'],
    ['no IBAN', { iban: '' }, 'iban'],
    ['no holder', { holder: ' \n ' }, 'holder'],
    ['a reference with wrong check digits', { reference: 'RF27FA20260001' }, 'reference'],
  ] as const)('refuses %s', (_why, changes: Partial<TransferRequest>, reason) => {
    expect(epcTransferPayload({ ...request, ...changes })).toEqual({ ok: false, reason });
  });

  it('keeps the beneficiary name to 70 characters on one line, cut between characters', () => {
    const name = `Société ${'é'.repeat(80)}`;
    const written = payloadOf({ holder: name }).split('\n')[5] as string;
    expect(Array.from(written)).toHaveLength(70);
    expect(written).toBe(Array.from(name).slice(0, 70).join(''));
    expect(payloadOf({ holder: '  Atelier\r\nDupont  ' }).split('\n')[5]).toBe('Atelier Dupont');
  });

  it(`refuses a payload over ${EPC_MAX_BYTES} bytes of UTF-8 (what a version 13, level M code holds)`, () => {
    // 70 four-byte characters: 280 bytes of name alone.
    expect(epcTransferPayload({ ...request, holder: '𝔸'.repeat(70) })).toEqual({ ok: false, reason: 'size' });
    // The longest payload of plain characters fits.
    const longest = payloadOf({ holder: 'A'.repeat(70), iban: `MT84MALT011000012345MTLCAST001S`, amount: '999999999.99' });
    expect(new TextEncoder().encode(longest).length).toBeLessThanOrEqual(EPC_MAX_BYTES);
  });
});
