import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { simpleParser } from 'mailparser';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  curlyApostrophes,
  formatCount,
  formatNumber,
  formatNumberUpTo,
  formatPercent,
  formatRate,
  frenchTypography,
  groupThousands,
  MINUS,
  NARROW_NBSP,
  NBSP,
  withFrenchSpaces,
} from '../../src/shared/typography';
import { formatCompactMoney, formatMoney } from '../../src/shared/format';
import { formatTaxRate } from '../../src/shared/totals';
import { createMailer } from '../../src/server/mail/mailer';

const ROOT = join(import.meta.dirname, '../..');

describe('the French typography module', () => {
  it('writes signs, percentages and thousands the French way', () => {
    expect(formatPercent(10)).toBe(`10,00${NARROW_NBSP}%`);
    expect(formatPercent('5.5', 1)).toBe(`5,5${NARROW_NBSP}%`);
    expect(formatPercent(1234.5, 2, { decimal: '.', thousand: ',' })).toBe(`1,234.50${NARROW_NBSP}%`);
    expect(formatPercent(-3, 0)).toBe(`${MINUS}3${NARROW_NBSP}%`);
    expect(formatNumber(1234567.891, 2, { thousand: NARROW_NBSP })).toBe(`1${NARROW_NBSP}234${NARROW_NBSP}567,89`);
    expect(formatNumber('-0.001', 2)).toBe('0,00');
    expect(groupThousands('1234567')).toBe(`1${NARROW_NBSP}234${NARROW_NBSP}567`);
    expect(groupThousands('1234567', '')).toBe('1234567');
    // Rates, counts and chart amounts with the decimals they have, from the same module.
    expect(formatNumberUpTo(5.5)).toBe('5,5');
    expect(formatNumberUpTo(1 / 3)).toBe('0,33');
    expect(formatRate(20)).toBe(`20${NARROW_NBSP}%`);
    expect(formatRate('2.10')).toBe(`2,1${NARROW_NBSP}%`);
    expect(formatRate(-12.345)).toBe(`${MINUS}12,35${NARROW_NBSP}%`);
    expect(formatCount(12345)).toBe(`12${NARROW_NBSP}345`);
    expect(formatCompactMoney(-2267, 'EUR')).toBe(`${MINUS}2,3${NBSP}k${NBSP}€`);
    expect(formatCompactMoney(950, 'EUR')).toBe(`950${NBSP}€`);
    // The tax rates and the amounts go through the same module.
    expect(formatTaxRate(20)).toBe(formatPercent(20));
    expect(
      formatMoney(-12.5, { currency: 'EUR', currency_position: 'after', use_space: true, decimal: ',', thousand: '', precision: 2 }),
    ).toBe(`${MINUS}12,50${NBSP}€`);
  });

  it('puts no-break spaces before « : ; ! ? % € » and leaves URLs and times alone', () => {
    expect(withFrenchSpaces('Total : 40 € ; payé ? oui ! 20%')).toBe(
      `Total${NBSP}: 40${NBSP}€${NARROW_NBSP}; payé${NARROW_NBSP}? oui${NARROW_NBSP}! 20${NARROW_NBSP}%`,
    );
    expect(withFrenchSpaces('https://exemple.fr/a?b=1 à 10:30')).toBe('https://exemple.fr/a?b=1 à 10:30');
    expect(curlyApostrophes("l'avoir d'Hélène, 'cité'")).toBe("l’avoir d’Hélène, 'cité'");
    expect(frenchTypography("Date d'émission : 2 %")).toBe(`Date d’émission${NBSP}: 2${NARROW_NBSP}%`);
  });

  it('leaves web and e-mail addresses as typed, whatever is around them', () => {
    const link = "https://exemple.fr/p?q=10%20%25&r=l'a";
    expect(withFrenchSpaces(`Ouvrez ce lien : ${link} !`)).toBe(`Ouvrez ce lien${NBSP}: ${link}${NARROW_NBSP}!`);
    expect(frenchTypography(`Écrivez à jean.o'neil+2%@exemple.fr ; merci`)).toBe(
      `Écrivez à jean.o'neil+2%@exemple.fr${NARROW_NBSP}; merci`,
    );
    expect(frenchTypography("l'adresse mailto:a@b.fr")).toBe('l’adresse mailto:a@b.fr');
  });
});

/**
 * Strings the product's own specification writes with a straight apostrophe: kept as written, character for
 * character, since screens and tests name them so.
 */
const SPECIFIED = [
  "Vue d'ensemble",
  "S'abonner Maintenant",
  "Infos de l'entreprise",
  "Envoi d'emails",
  "Date d'échéance",
  "Valide jusqu'au",
  "Une erreur s'est produite",
  "lors de l'envoi du feedback",
  "de l'authentification",
  // The organisations' stored default wording of the escompte mention, matched as written at issue.
  "Pas d'escompte pour paiement anticipé",
];

/** Code that reads like text but is not French prose. */
const NOT_PROSE = [
  /^\s*$/,
  /^[a-z_.:/-]+$/i, // keys, paths, CSS properties
  /https?:\/\//, // URLs
  /^[\w.]+\[.+\]$/, // the expression a `defined()` label names
  /^[&>:@[]|[{}();=]|\$\{/, // CSS selectors and code
];

/**
 * The UI (every client component and the document renderer) and the shared strings the pages and the mails print.
 * Not the legal mentions: they are frozen at issue and sent in the e-invoice as written; the renderer spaces them.
 */
const SWEPT_SHARED = ['email-template.ts', 'document-types.ts', 'status.ts', 'template-labels.ts', 'reminders.ts'];

function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const swept = [
  ...sourceFiles(join(ROOT, 'src/client'), (name) => name.endsWith('.tsx') || name.endsWith('.ts')),
  ...sourceFiles(join(ROOT, 'src/client/render'), (name) => name.endsWith('.ts')),
  ...SWEPT_SHARED.map((name) => join(ROOT, 'src/shared', name)),
].filter((path, i, all) => all.indexOf(path) === i);

/** Every piece of text a file writes: string literals, template pieces and JSX text (comments are English). */
function textsOf(path: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const texts: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      // A regular expression's source or a class list is no prose: only text with a French word in it is read.
      texts.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return texts;
}

const isProse = (text: string) => /\p{L}{2,}/u.test(text) && !NOT_PROSE.some((pattern) => pattern.test(text.trim()));
const specified = (text: string) => SPECIFIED.some((s) => text.includes(s));

/** A straight apostrophe inside a word, a plain space before « : ; ! ? % € », or a number glued to « % » / « € ». */
function faults(text: string): string[] {
  const found: string[] = [];
  if (/\p{L}'\p{L}/u.test(text) && !specified(text)) found.push('apostrophe droite');
  if (/ [;!?%€]| :(?=\s|$)/.test(text) && !specified(text)) found.push('espace sécable avant le signe');
  if (/\d[%€]/.test(text)) found.push('signe collé au nombre');
  return found;
}

/**
 * The sign printed after a value a template or JSX puts before it (`${rate} %`, `{sum} %`, `${status} : ${message}`):
 * no word in the piece, so `isProse` does not read it, yet the space before the sign breaks all the same.
 */
const bareSignAfterValue = (text: string): boolean => /^ +(?:[;!?%€]|:(?=\s|$))/.test(text);

describe('French typography of the UI strings', () => {
  it('writes ’ and no-break spaces before « : ; ! ? % € » (the specification’s own strings aside)', () => {
    const problems: string[] = [];
    for (const path of swept) {
      for (const { line, text } of textsOf(path)) {
        if (bareSignAfterValue(text))
          problems.push(`${relative(ROOT, path)}:${line} espace sécable avant le signe — ${JSON.stringify(text.slice(0, 80))}`);
        if (!isProse(text)) continue;
        for (const fault of faults(text)) problems.push(`${relative(ROOT, path)}:${line} ${fault} — ${JSON.stringify(text.slice(0, 80))}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000); // parses a few hundred files
});

/**
 * Straight apostrophes the server and the shared code keep on purpose: a spelling matched on import beside the
 * typographic one, and the FEC's entry label (the FEC file is read by accounting tools, whose exports write it so).
 */
const KEPT_AS_TYPED = ["Côte d'Ivoire", "Facture d'acompte"];

/**
 * The server's messages and the shared ones outside the UI's list: API text, answered as written (integrations and the
 * API's documentation quote it), so the plain spaces before their signs stay; each printer gives them their no-break
 * spaces — the snackbar and the fields' errors on screen, the mailer for every mail (checked below), the renderer for
 * documents. Their apostrophes and the signs glued to numbers are faults all the same.
 */
const sweptServer = [
  ...sourceFiles(join(ROOT, 'src/server'), (name) => name.endsWith('.ts')),
  ...sourceFiles(join(ROOT, 'src/shared'), (name) => name.endsWith('.ts')),
].filter((path) => !swept.includes(path));

describe('French typography of the server’s messages', () => {
  it('writes ’ and never glues « % » or « € » to a number (the plain spaces are the printers’ business)', () => {
    const problems: string[] = [];
    for (const path of sweptServer) {
      for (const { line, text } of textsOf(path)) {
        if (!isProse(text) || KEPT_AS_TYPED.some((kept) => text.includes(kept))) continue;
        for (const fault of faults(text).filter((f) => f !== 'espace sécable avant le signe'))
          problems.push(`${relative(ROOT, path)}:${line} ${fault} — ${JSON.stringify(text.slice(0, 80))}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('prints every mail’s subject and text with the no-break spaces, whatever the message was written with', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'facturier-typography-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'Facturier <noreply@exemple.fr>', dataDir });
      await mailer.send({ to: 'client@exemple.fr', subject: 'Facture : 40 €', text: 'Total : 40 € ; payé ? 20 %' });
      const [file] = readdirSync(join(dataDir, 'outbox'));
      const mail = await simpleParser(readFileSync(join(dataDir, 'outbox', String(file))));
      expect(mail.subject).toBe(`Facture${NBSP}: 40${NBSP}€`);
      expect(mail.text?.trim()).toBe(`Total${NBSP}: 40${NBSP}€${NARROW_NBSP}; payé${NARROW_NBSP}? 20${NARROW_NBSP}%`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
