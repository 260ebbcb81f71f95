import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Amounts are decimal (STYLE.md §7): every computation goes through src/shared/money.ts (big.js or BigInt units),
 * JS numbers only carry them in and out. This test reads src/ for the float arithmetic that crept in before.
 */
const ROOT = join(import.meta.dirname, '../..');
const AMOUNT =
  '(?:amount|amounts|total|totals|price|paid|billed|subtotal|tax|due|amount_due|deposits?|outstanding|turnover|credited|shipping|discount|balance)';

const FLOAT_MONEY_PATTERNS = [
  { name: 'scales by a power-of-ten literal (× 1e4, ÷ 1e4)', pattern: /[*/]\s*1e\d+\b|\b1e\d+\s*[*/]/ },
  { name: 'scales by 10 ** decimals', pattern: /[*/]\s*\(?\s*10\s*\*\*/ },
  { name: 'rounds to hundredths in floats (* 100) / 100', pattern: /\*\s*100\s*\)\s*\/\s*100\b/ },
  { name: 'parseFloat', pattern: /\bparseFloat\s*\(/ },
  { name: '.toFixed( (use toDecimalString, formatDecimal or formatMoney)', pattern: /\.toFixed\s*\(/ },
  { name: 'Math rounding of an amount', pattern: new RegExp(`Math\\.(?:round|floor|ceil|trunc)\\([^\\n]*\\b\\w*${AMOUNT}\\b`, 'i') },
  { name: 'arithmetic on an amount field', pattern: new RegExp(`\\.${AMOUNT}\\s*[-+*/]\\s*[\\w(]`) },
] as const;
type PatternName = (typeof FLOAT_MONEY_PATTERNS)[number]['name'];

/** Each exception names its file, the pattern it may match and why that is not float arithmetic on an amount. */
const ALLOWED: { file: string; pattern: PatternName; reason: string }[] = [
  {
    file: 'src/server/einvoice/en16931.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'the EN 16931 model works on BigInt units, exact',
  },
  {
    file: 'src/server/db/queries/expenses.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'integer units as stored (amount − VAT), converted after the subtraction',
  },
  {
    file: 'src/server/services/bank-reconciliation.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'statement lines in integer units as stored (ten-thousandths), summed exactly, converted once at the answer',
  },
  {
    file: 'src/server/db/migrations/0070_ordered_generations_grouped_summaries.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'SQL text of a trigger (subtotal − discount on integer columns), not arithmetic in JavaScript',
  },
  ...[
    'src/server/db/migrations/0074_turnover_summaries.ts',
    'src/server/db/migrations/0075_receipt_summaries.ts',
    'src/server/db/queries/summaries.ts',
  ].map((file) => ({
    file,
    pattern: 'arithmetic on an amount field' as const,
    reason: 'SQL text over integer columns (stored units), summed by the database, not arithmetic in JavaScript',
  })),
  {
    file: 'src/server/services/expense-receipts.ts',
    pattern: '.toFixed( (use toDecimalString, formatDecimal or formatMoney)',
    reason: 'a file size in megabytes for an error message, not an amount',
  },
  {
    file: 'src/server/db/migrations/0008_line_amounts.ts',
    pattern: '.toFixed( (use toDecimalString, formatDecimal or formatMoney)',
    reason: 'the totals engine as the migration ran it: big.js Big#toFixed gives exact decimal text',
  },
  {
    file: 'src/shared/money.ts',
    pattern: '.toFixed( (use toDecimalString, formatDecimal or formatMoney)',
    reason: 'the engine itself: big.js Big#toFixed gives exact decimal text',
  },
  {
    file: 'src/client/routes/reports/bar-chart.tsx',
    pattern: 'rounds to hundredths in floats (* 100) / 100',
    reason: 'the ticks of a chart axis, drawn, never summed or stored',
  },
  {
    file: 'src/server/services/reports.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'VAT-on-receipts shares summed as BigInt stored units, exact, converted once per group',
  },
  {
    file: 'src/server/services/reports.ts',
    pattern: 'Math rounding of an amount',
    reason: 'the DSO, a number of days computed exactly with big.js, rounded to a whole day for display',
  },
  {
    file: 'src/shared/time-input.ts',
    pattern: 'Math rounding of an amount',
    reason: 'seconds of a time of day (its `total` is a count of seconds, not money)',
  },
  {
    file: 'src/client/render/use-fit-scale.ts',
    pattern: 'rounds to hundredths in floats (* 100) / 100',
    reason: 'the zoom factor of the page preview, not an amount',
  },
  {
    file: 'src/client/routes/settings/document-settings/preview-pane.tsx',
    pattern: 'rounds to hundredths in floats (* 100) / 100',
    reason: 'the zoom factor of the template preview, not an amount',
  },
  {
    file: 'src/shared/totals.ts',
    pattern: 'arithmetic on an amount field',
    reason: 'the totals engine: its amounts are BigInt units, exact',
  },
  ...[
    'src/client/components/ui/pagination.tsx',
    'src/client/routes/customers/customer-documents.tsx',
    'src/client/routes/documents/documents-page.tsx',
  ].flatMap((file) =>
    (['Math rounding of an amount', 'arithmetic on an amount field'] as const).map((pattern) => ({
      file,
      pattern,
      reason: 'a list total is a count of rows (pages = ⌈total ÷ per page⌉), not an amount',
    })),
  ),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Code lines only: comments may describe the arithmetic they avoid. */
const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);

function floatMoneyFindings(file: string, text: string): string[] {
  const findings: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (isComment(line)) return;
    for (const { name, pattern } of FLOAT_MONEY_PATTERNS) {
      if (!pattern.test(line)) continue;
      if (ALLOWED.some((a) => a.file === file && a.pattern === name)) continue;
      findings.push(`${file}:${i + 1} ${name}: ${line.trim()}`);
    }
  });
  return findings;
}

describe('no float arithmetic on amounts', () => {
  it('finds none in src/ outside the allowlist', () => {
    const findings = sourceFiles(join(ROOT, 'src')).flatMap((path) =>
      floatMoneyFindings(relative(ROOT, path).split('\\').join('/'), readFileSync(path, 'utf8')),
    );
    expect(findings).toEqual([]);
  });

  it.each([
    ['const units = Math.round(p.minAmount * 1e4);'],
    ['const n = value / 1e4;'],
    ['return Number.isInteger(Math.round(amount * 10 ** precision * 1e6) / 1e6);'],
    ['const cents = Math.round(price * 100) / 100;'],
    ['const v = parseFloat(text);'],
    ['label(left.toFixed(2));'],
    ['const share = Math.round((r.paid / r.billed) * 100);'],
    ['value: f.money(t.subtotal - t.discount)'],
  ])('catches %s', (line) => {
    expect(floatMoneyFindings('src/example.ts', line).length).toBeGreaterThan(0);
  });

  it.each([
    ['// amount = round(taxable × rate / 100)'],
    ['const share = toNumber(min(100, round(div(mul(paid, 100), billed), 0)));'],
    ['if (Math.abs(value) < 1e15) return x;'],
    ['setScale(Math.min(max, width / PAGE_WIDTH));'],
  ])('lets %s pass', (line) => {
    expect(floatMoneyFindings('src/example.ts', line)).toEqual([]);
  });

  it('allows each file of the allowlist only for a file that exists', () => {
    const files = new Set(sourceFiles(join(ROOT, 'src')).map((p) => relative(ROOT, p).split('\\').join('/')));
    expect(ALLOWED.map((a) => a.file).filter((f) => !files.has(f))).toEqual([]);
  });
});
