import { isValidCreditorReference, compactReference } from './creditor-reference';
import { compactAccountCode, isValidBic, isValidIban } from './iban';
import { money, round, toDecimalString } from './money';

/**
 * The payload of an EPC069-12 QR code (« SEPA credit transfer », version 002): what a banking app reads to fill in a
 * transfer. One element a line, in this order: service tag, version, character set (1: UTF-8), identification, BIC,
 * beneficiary name, IBAN, amount, purpose, structured reference, unstructured remittance — the last empty ones left out.
 */
export interface TransferRequest {
  currency: string;
  /** What is asked for, in euros. */
  amount: number | string;
  holder: string;
  iban: string;
  /** Optional within the EEA since version 002: an unusable one is left out rather than sent wrong. */
  bic: string;
  /** ISO 11649 reference; null: `text` goes in the unstructured remittance instead. */
  reference: string | null;
  text?: string;
}

export type TransferRefusal = 'currency' | 'amount' | 'iban' | 'holder' | 'reference' | 'size';
/** The payload, and the values it carries as they were written (what a page shows beside the code). */
export interface TransferCode {
  payload: string;
  holder: string;
  iban: string;
  /** '' when left out. */
  bic: string;
  /** '123.45' */
  amount: string;
}
export type TransferPayload = ({ ok: true } & TransferCode) | { ok: false; reason: TransferRefusal };

/** EPC069-12's limits. */
export const EPC_MAX_BYTES = 331;
const NAME_MAX = 70;
const TEXT_MAX = 140;
const AMOUNT_MIN = money('0.01');
const AMOUNT_MAX = money('999999999.99');

/** One line of the payload: a line break inside a value would shift every element after it. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Cut at a character, not inside one: a banking app shows the name, a broken UTF-8 sequence would garble it. */
const cut = (text: string, max: number) => Array.from(text).slice(0, max).join('');

export function epcTransferPayload(request: TransferRequest): TransferPayload {
  // SEPA credit transfers are in euros only.
  if (request.currency !== 'EUR') return { ok: false, reason: 'currency' };
  const amount = round(request.amount, 2);
  if (amount.lt(AMOUNT_MIN) || amount.gt(AMOUNT_MAX)) return { ok: false, reason: 'amount' };
  // A wrong IBAN would send the money elsewhere or bounce: no code at all rather than that.
  if (!isValidIban(request.iban)) return { ok: false, reason: 'iban' };
  const holder = cut(oneLine(request.holder), NAME_MAX).trim();
  if (!holder) return { ok: false, reason: 'holder' };
  if (request.reference !== null && !isValidCreditorReference(request.reference)) return { ok: false, reason: 'reference' };

  const bic = isValidBic(request.bic) ? compactAccountCode(request.bic) : '';
  const iban = compactAccountCode(request.iban);
  const euros = toDecimalString(amount, 2);
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    bic,
    holder,
    iban,
    `EUR${euros}`,
    '',
    request.reference === null ? '' : compactReference(request.reference),
    // A structured reference and a free text are exclusive: the reference alone lets the payment be matched.
    request.reference === null ? cut(oneLine(request.text ?? ''), TEXT_MAX) : '',
  ];
  while (lines.at(-1) === '') lines.pop();
  const payload = lines.join('\n');
  if (new TextEncoder().encode(payload).length > EPC_MAX_BYTES) return { ok: false, reason: 'size' };
  return { ok: true, payload, holder, iban, bic, amount: euros };
}
