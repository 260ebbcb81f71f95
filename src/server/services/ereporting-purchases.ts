import type { Db } from '../db/connection';
import { purchaseExpensesOfPeriod } from '../db/queries/ereporting';
import type { PurchaseRecord } from '../../shared/ereporting-purchases';
import { INPUT_SCALE, unitsToDecimalText } from '../../shared/money';
import { purchaseNature } from '../../shared/vat-return/purchases';

const decimal = (units: number | bigint | null) => unitsToDecimalText(BigInt(units ?? 0), INPUT_SCALE);

/** The period's expenses that may be international purchases, as the e-reporting of purchases reads them. */
export async function purchasesOf(db: Db, organizationId: number, period: { from: string; to: string }): Promise<PurchaseRecord[]> {
  const rows = await purchaseExpensesOfPeriod(db, { organizationId, ...period });
  return rows.map(
    (e): PurchaseRecord => ({
      id: e.id,
      kind: e.kind === 'credit_note' ? 'credit_note' : 'expense',
      date: e.date,
      supplier: e.supplier,
      invoiceNumber: e.invoice_number.trim(),
      supplierCountry: e.supplier_country,
      supplierVatNumber: e.supplier_vat_number,
      currency: e.currency,
      viaPlatform: e.source === 'platform',
      // An expense whose category was deleted is one of services, as the VAT return takes it.
      nature: purchaseNature(e.account ?? ''),
      reverseCharge: e.reverse_charge === 'goods' || e.reverse_charge === 'services' ? e.reverse_charge : '',
      amount: decimal(e.amount),
      vat: (JSON.parse(e.vat) as { rate: number; amount: number; deductible: boolean }[]).map((v) => ({
        rate: Number(v.rate),
        amount: decimal(v.amount),
        deductible: v.deductible,
      })),
      precedingNumber: e.preceding_invoice_number.trim(),
      precedingDate: e.corrected_date ?? null,
    }),
  );
}
