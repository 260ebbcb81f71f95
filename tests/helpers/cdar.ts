import fs from 'node:fs';
import path from 'node:path';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/cdar');

/**
 * An official lifecycle message (FNFE-MPE's example of use case 4, a 207 « En litige » from the buyer to the seller)
 * about one of the test's invoices: its number, date and seller's SIREN put in place of the example's, with the status
 * code and reason asked for. Everything else stays as the FNFE wrote it.
 */
export function customerStatus(params: {
  number: string;
  /** The invoice's date, YYYY-MM-DD. */
  date: string;
  sellerSiren: string;
  code: number;
  label: string;
  reasonCode?: string;
  reason?: string;
  /** The day the status was set, YYYY-MM-DD (the invoice's date by default). */
  statusDate?: string;
}): Buffer {
  const compact = (day: string) => day.replaceAll('-', '');
  let xml = fs.readFileSync(path.join(FIXTURES, 'UC4_F202500006_04-CDV-207_En_litige.xml'), 'utf8');
  xml = xml
    .replaceAll('F202500006', params.number)
    .replace(
      /<ram:GlobalID schemeID="0002">100000009<\/ram:GlobalID>/g,
      `<ram:GlobalID schemeID="0002">${params.sellerSiren}</ram:GlobalID>`,
    )
    .replace(
      /<qdt:DateTimeString format="102">20250701<\/qdt:DateTimeString>/,
      `<qdt:DateTimeString format="102">${compact(params.date)}</qdt:DateTimeString>`,
    )
    .replace(
      '<udt:DateTimeString format="204">20250701180000</udt:DateTimeString>',
      `<udt:DateTimeString format="204">${compact(params.statusDate ?? params.date)}180000</udt:DateTimeString>`,
    )
    .replace(
      '<ram:ProcessConditionCode>207</ram:ProcessConditionCode>',
      `<ram:ProcessConditionCode>${params.code}</ram:ProcessConditionCode>`,
    )
    .replace('<ram:ProcessCondition>En_litige</ram:ProcessCondition>', `<ram:ProcessCondition>${params.label}</ram:ProcessCondition>`)
    .replace('<ram:ReasonCode>TX_TVA_ERR</ram:ReasonCode>', `<ram:ReasonCode>${params.reasonCode ?? 'TX_TVA_ERR'}</ram:ReasonCode>`)
    .replace(/<ram:Reason>[^<]*<\/ram:Reason>/, `<ram:Reason>${params.reason ?? 'Taux de TVA erroné'}</ram:Reason>`);
  return Buffer.from(xml, 'utf8');
}
