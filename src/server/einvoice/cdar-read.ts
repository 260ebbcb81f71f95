import { parseInvoice } from './xml-checks';
import { EINVOICE_XML_MAX_BYTES, EINVOICE_XML_MAX_LABEL } from './xml-size';

/** UN/CEFACT CDAR D22B, the lifecycle message of the French reform (XP Z12-012, « CDV »). */
export const CDAR_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** One status of one invoice, as a lifecycle message states it. */
export interface CdarStatus {
  /** MDT-87: the invoice's number (BT-1). */
  invoiceNumber: string;
  /** MDT-100: the invoice's date (BT-2), YYYY-MM-DD, when given. */
  invoiceDate: string | null;
  /** MDT-129: the SIREN of the invoice's issuer, when given. */
  issuerSiren: string;
  /** MDT-105: the status code, 200 to 213. */
  code: number;
  /** MDT-113 and MDT-114: the first reason given, code and words. */
  reasonCode: string;
  reason: string;
  /** MDT-78: the day the status was set, YYYY-MM-DD. */
  date: string;
}

export class CdarError extends Error {}

/** YYYYMMDD… (formats 102 and 204) as YYYY-MM-DD, or null. */
function dayOf(text: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(text);
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? null : day;
}

/**
 * Reads a lifecycle message with libxml2 (no DTD, no entity expansion, no network): each invoice it is about and the
 * status it gives. Throws a CdarError, in French, for anything else.
 */
export async function readCdar(xml: string): Promise<CdarStatus[]> {
  if (Buffer.byteLength(xml) > EINVOICE_XML_MAX_BYTES) throw new CdarError(`Le message dépasse ${EINVOICE_XML_MAX_LABEL}`);
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) {
    const first = parsed.problems[0];
    throw new CdarError(`Le fichier n’est pas un XML lisible : ${first?.message ?? 'erreur inconnue'}`);
  }
  const { doc } = parsed;
  try {
    if (doc.root.name !== 'CrossDomainAcknowledgementAndResponse' || doc.root.namespaceUri !== CDAR_NS.rsm)
      throw new CdarError(`Ce XML n’est pas un message de cycle de vie (CDAR) : élément racine ${doc.root.name}`);
    const text = (xpath: string) => {
      const value = doc.eval(`normalize-space(${xpath})`, CDAR_NS);
      return typeof value === 'string' ? value : '';
    };
    const date = dayOf(text('/rsm:CrossDomainAcknowledgementAndResponse/rsm:AcknowledgementDocument/ram:IssueDateTime/udt:DateTimeString'));
    if (!date) throw new CdarError('Le message ne date pas le statut (MDT-78)');
    const references = doc.find(
      '/rsm:CrossDomainAcknowledgementAndResponse/rsm:AcknowledgementDocument/ram:ReferenceReferencedDocument',
      CDAR_NS,
    );
    if (references.length === 0) throw new CdarError('Le message ne désigne aucune facture (MDT-87)');
    return references.map((_, i) => {
      const at = (path: string) =>
        text(`/rsm:CrossDomainAcknowledgementAndResponse/rsm:AcknowledgementDocument/ram:ReferenceReferencedDocument[${i + 1}]/${path}`);
      const invoiceNumber = at('ram:IssuerAssignedID');
      const code = at('ram:ProcessConditionCode');
      if (!invoiceNumber) throw new CdarError('Le message ne donne pas le numéro de la facture (MDT-87)');
      if (!/^2(0\d|1[0-3])$/.test(code)) throw new CdarError(`Code de statut « ${code || 'absent'} » inconnu (MDT-105 : 200 à 213)`);
      return {
        invoiceNumber,
        invoiceDate: dayOf(at('ram:FormattedIssueDateTime/qdt:DateTimeString')),
        issuerSiren: at('ram:IssuerTradeParty/ram:GlobalID'),
        code: Number(code),
        reasonCode: at('ram:SpecifiedDocumentStatus[1]/ram:ReasonCode'),
        reason: at('ram:SpecifiedDocumentStatus[1]/ram:Reason'),
        date,
      };
    });
  } finally {
    doc.dispose();
  }
}
