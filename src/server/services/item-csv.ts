import { taxProblem } from '../../shared/vat';
import { taxRulesOf } from './tax-rules';
import type { Db } from '../db/connection';
import { itemInputSchema, type Item } from '../../shared/schemas/item';
import { frenchDecimal, frenchNumber } from '../../shared/csv';
import { insertItem, listItems, type ItemRecord } from '../db/queries/items';
import { listTaxes, listUnits } from '../db/queries/reference';
import { upsertSearchEntry } from '../db/queries/search';
import { csvFile, readCsvTable, type CsvColumn, type CsvRowReport } from './csv-table';

type Tax = { id: number; title: string; rate: number };

/** Several rates in one cell: ' + ' between them, as French rate titles themselves hold commas ('TVA 5,5 %'). */
const TAX_SEPARATOR = ' + ';

function columns(taxes: Tax[]): CsvColumn<ItemRecord>[] {
  const byId = new Map(taxes.map((t) => [t.id, t]));
  return [
    { header: 'Code', code: true, read: (i) => i.code, write: (r, v) => (r.code = v) },
    { header: 'Désignation', read: (i) => i.name, write: (r, v) => (r.name = v) },
    { header: 'Référence', code: true, read: (i) => i.sku, write: (r, v) => (r.sku = v) },
    { header: 'Description', read: (i) => i.description, write: (r, v) => (r.description = v) },
    {
      header: 'Unité',
      read: (i) => i.unit,
      write: (r, v) => {
        if (v) r.unit = v;
      },
    },
    { header: 'Prix unitaire HT', read: (i) => frenchDecimal(i.unit_price), write: (r, v) => (r.unit_price = frenchNumber(v)) },
    {
      header: 'Nature',
      read: (i) => (i.kind === 'goods' ? 'bien' : 'service'),
      write: (r, v) => (r.kind = /^bien/i.test(v) ? 'goods' : v === '' || /^serv/i.test(v) ? 'service' : v),
    },
    {
      header: 'TVA',
      read: (i) =>
        i.tax_ids
          .map((id) => byId.get(id)?.title ?? '')
          .filter(Boolean)
          .join(TAX_SEPARATOR),
      write: (r, v) => (r.tax_text = v),
    },
    { header: 'Actif', read: (i) => (i.active ? 'oui' : 'non'), write: (r, v) => (r.active = !/^(non|no|0|faux|false)$/i.test(v)) },
  ];
}

/** 'TVA 20 %', '20', '20 %' or '5,5' → the organisation's rate; null when none matches. */
function findTax(taxes: Tax[], text: string): Tax | null {
  const wanted = text.trim().toLowerCase();
  const byTitle = taxes.find((t) => t.title.toLowerCase() === wanted);
  if (byTitle) return byTitle;
  const rate = frenchNumber(wanted.replace(/%$/, '').trim());
  return rate === undefined || Number.isNaN(rate) ? null : (taxes.find((t) => t.rate === rate) ?? null);
}

/**
 * Items from a CSV: same schema as the form, plus what only the server knows (the organisation's units and rates,
 * codes already taken, in the base or earlier in the file). Valid rows are created together, or none.
 */
export async function importItems(db: Db, organizationId: number, csv: string, dryRun: boolean): Promise<CsvRowReport> {
  const [taxes, units, existing, rules] = await Promise.all([
    listTaxes(db, { organizationId }),
    listUnits(db, { organizationId }),
    listItems(db, { organizationId, archived: 'exclude', active: 'all', sortBy: 'code', sortOrder: 'asc', offset: 0, limit: 1_000_000 }),
    taxRulesOf(db, organizationId),
  ]);
  const unitNames = new Set(units.map((u) => u.name));
  const codes = new Set(existing.data.map((i) => i.code.toLowerCase()).filter(Boolean));
  const schema = itemInputSchema.extend({}).passthrough();
  const table = readCsvTable(csv, columns(taxes) as CsvColumn<never>[], schema, {
    required: 'Désignation',
    emptyRaw: () => ({}),
    check: (item) => {
      const problems: string[] = [];
      if (!unitNames.has(item.unit)) problems.push(`Unité inconnue : « ${item.unit} »`);
      const cell = String((item as { tax_text?: string }).tax_text ?? '');
      const found: Tax[] = [];
      for (const part of cell.split(TAX_SEPARATOR).filter((p) => p.trim() !== '')) {
        const tax = findTax(taxes, part);
        if (tax) found.push(tax);
        else problems.push(`TVA inconnue : « ${part.trim()} »`);
      }
      item.tax_ids = found.map((t) => t.id);
      // The same VAT rules as the item form: one rate unless several are allowed, none under the franchise.
      const rule = taxProblem('TVA', found, rules, 'article');
      if (rule) problems.push(rule);
      const code = item.code.toLowerCase();
      if (code && codes.has(code)) problems.push(`Le code article « ${item.code} » est déjà utilisé`);
      else if (code && problems.length === 0) codes.add(code); // a later row with the same code is refused too
      return problems;
    },
  });
  if (!dryRun && table.valid.length > 0) {
    await db.transaction().execute(async (trx) => {
      for (const { data } of table.valid as { data: Item & { tax_text?: string } }[]) {
        const { tax_text: _, ...item } = data;
        const id = await insertItem(trx, { organizationId, item });
        await upsertSearchEntry(trx, {
          organizationId,
          kind: 'item',
          refId: id,
          title: item.name,
          subtitle: item.code,
          body: [item.sku, item.description].filter(Boolean).join(' '),
        });
      }
    });
  }
  return {
    total_rows: table.total,
    valid: table.valid.length,
    rejected: table.rejected,
    ignored_columns: table.ignored,
    changed: table.changed,
    created: dryRun ? 0 : table.valid.length,
  };
}

export async function exportItems(db: Db, organizationId: number) {
  const [taxes, { data }] = await Promise.all([
    listTaxes(db, { organizationId }),
    listItems(db, { organizationId, archived: 'exclude', active: 'all', sortBy: 'code', sortOrder: 'asc', offset: 0, limit: 1_000_000 }),
  ]);
  return csvFile('articles', columns(taxes), data);
}
