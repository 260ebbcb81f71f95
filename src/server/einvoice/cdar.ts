import { CDAR_NS } from './cdar-read';
import { compactDate, el, text } from './xml-writer';

/**
 * Writes a lifecycle message (UN/CEFACT CDAR D22B, « CDV » of XP Z12-012) as the FNFE-MPE examples lay it out: the
 * platform as sender (role WK), the party that sets the status as issuer, the other party of the invoice as recipient
 * with its electronic address, and the invoice referred to with its status, reason and, for « Encaissée », the amounts
 * received per VAT rate. What it writes must pass the CDAR schema and the BR-FR-CDV rules (einvoice/cdar-validate.ts).
 */

export interface CdarParty {
  siren: string;
  name: string;
  /** UNCL 3035: BY the buyer, SE the seller. */
  role: 'BY' | 'SE';
}

export interface CdarMessage {
  /** MDT-4: the message's own id, unique. */
  id: string;
  /** MDT-5: its name. */
  name: string;
  /** MDT-8 and MDT-78: when it is written and when the status is set. */
  at: Date;
  issuer: CdarParty;
  /** The other party, reached at its electronic address (MDT-73, scheme 0225). */
  recipient: CdarParty & { address: string };
  /** « Encaissée » also goes to the tax administration's platform (PPF, role DFH), for VAT due on receipt. */
  toTaxAuthority: boolean;
  invoice: { number: string; date: string; typeCode: number; sellerSiren: string };
  status: { code: number; label: string; reasonCode?: string; reason?: string };
  /** On « Encaissée » (BR-FR-CDV-14): the amount received for each VAT rate, decimals as text. */
  cashed?: { currency: string; lines: { amount: string; rate: string }[] };
}

/** MDT-88, as the FNFE examples pair it with the status (absent otherwise: it is optional). */
const DOCUMENT_STATUS: Record<number, string> = { 205: '1', 207: '46', 212: '47' };

const parisParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Format 204 (YYYYMMDDHHMMSS), French time. */
export function dateTime204(at: Date): string {
  const parts = Object.fromEntries(parisParts.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}`;
}

const siren = (party: { siren: string }) => text('ram:GlobalID', party.siren, { schemeID: '0002' });

export function writeCdar(message: CdarMessage): string {
  const at = dateTime204(message.at);
  const { invoice, status, recipient } = message;
  const characteristics = (message.cashed?.lines ?? []).map((line) =>
    el('ram:SpecifiedDocumentCharacteristic', [
      text('ram:TypeCode', 'MEN'),
      el('ram:ValueChangedIndicator', text('udt:IndicatorString', 'false')),
      text('ram:ValueAmount', line.amount, { currencyID: message.cashed?.currency }),
      text('ram:ValuePercent', line.rate),
    ]),
  );
  const documentStatus =
    status.reasonCode || characteristics.length > 0
      ? el('ram:SpecifiedDocumentStatus', [
          text('ram:ReasonCode', status.reasonCode),
          text('ram:Reason', status.reason),
          text('ram:SequenceNumeric', '1'),
          characteristics,
        ])
      : '';
  const root = el(
    'rsm:CrossDomainAcknowledgementAndResponse',
    [
      el('rsm:ExchangedDocumentContext', [
        el('ram:BusinessProcessSpecifiedDocumentContextParameter', text('ram:ID', 'REGULATED')),
        el('ram:GuidelineSpecifiedDocumentContextParameter', text('ram:ID', 'urn.cpro.gouv.fr:1p0:CDV:invoice')),
      ]),
      el('rsm:ExchangedDocument', [
        text('ram:ID', message.id),
        text('ram:Name', message.name),
        el('ram:IssueDateTime', text('udt:DateTimeString', at, { format: '204' })),
        el('ram:SenderTradeParty', text('ram:RoleCode', 'WK')),
        el('ram:IssuerTradeParty', [
          siren(message.issuer),
          text('ram:Name', message.issuer.name),
          text('ram:RoleCode', message.issuer.role),
        ]),
        el('ram:RecipientTradeParty', [
          siren(recipient),
          text('ram:Name', recipient.name),
          text('ram:RoleCode', recipient.role),
          el('ram:URIUniversalCommunication', text('ram:URIID', recipient.address, { schemeID: '0225' })),
        ]),
        message.toTaxAuthority &&
          el('ram:RecipientTradeParty', [
            text('ram:GlobalID', '9998', { schemeID: '0238' }),
            text('ram:Name', 'PPF'),
            text('ram:RoleCode', 'DFH'),
          ]),
      ]),
      el('rsm:AcknowledgementDocument', [
        el('ram:MultipleReferencesIndicator', text('udt:Indicator', 'false')),
        text('ram:TypeCode', '23'),
        el('ram:IssueDateTime', text('udt:DateTimeString', at, { format: '204' })),
        el('ram:ReferenceReferencedDocument', [
          text('ram:IssuerAssignedID', invoice.number),
          text('ram:StatusCode', DOCUMENT_STATUS[status.code]),
          text('ram:TypeCode', String(invoice.typeCode)),
          el('ram:FormattedIssueDateTime', text('qdt:DateTimeString', compactDate(invoice.date), { format: '102' })),
          text('ram:ProcessConditionCode', String(status.code)),
          text('ram:ProcessCondition', status.label),
          el('ram:IssuerTradeParty', siren({ siren: invoice.sellerSiren })),
          documentStatus,
        ]),
      ]),
    ],
    { 'xmlns:rsm': CDAR_NS.rsm, 'xmlns:ram': CDAR_NS.ram, 'xmlns:udt': CDAR_NS.udt, 'xmlns:qdt': CDAR_NS.qdt },
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}`;
}
