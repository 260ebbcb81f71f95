import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { artefactPath, syntaxArtefacts } from '../../../src/server/einvoice/artefacts';
import { type EinvoiceSyntax, validateEinvoice, validationSummary } from '../../../src/server/einvoice/validate';

// The official EN 16931 sample invoices (examples of the validation artefacts, EUPL 1.2), copied unchanged.
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/einvoice');
const samples = (syntax: EinvoiceSyntax) => fs.readdirSync(path.join(FIXTURES, syntax)).filter((f) => f.endsWith('.xml'));
const sample = (syntax: EinvoiceSyntax, file: string) => fs.readFileSync(path.join(FIXTURES, syntax, file), 'utf8');

/** Replaces exactly one occurrence, so a mutation cannot silently miss its target. */
function mutate(xml: string, from: string | RegExp, to: string): string {
  const count = typeof from === 'string' ? xml.split(from).length - 1 : (xml.match(new RegExp(from, 'g')) ?? []).length;
  expect(count, `occurrences de ${String(from)}`).toBe(1);
  return xml.replace(from, to);
}

const fatalRules = (result: Awaited<ReturnType<typeof validateEinvoice>>) =>
  result.asserts.filter((a) => a.flag === 'fatal').map((a) => a.rule);

// The first validation loads libxml2, the XSD, SaxonJS and a 5–7 MB SEF: done once here, within a generous timeout.
beforeAll(async () => {
  await Promise.all([
    validateEinvoice(sample('cii', 'CII_example3.xml'), 'cii'),
    validateEinvoice(sample('ubl', 'ubl-tc434-example3.xml'), 'ubl'),
  ]);
}, 120_000);

describe('official EN 16931 samples', () => {
  it.each(samples('cii'))(
    'CII %s passes the XSD and the schematron with no fatal assert',
    async (file) => {
      const result = await validateEinvoice(sample('cii', file), 'cii');
      expect(result).toMatchObject({ ok: true, stage: 'rules', problems: [] });
      expect(fatalRules(result)).toEqual([]);
      expect(validationSummary(result)).toBe('Le XML CII est conforme à EN 16931');
    },
    30_000,
  );

  it.each(samples('ubl'))(
    'UBL %s passes the schematron with no fatal assert',
    async (file) => {
      const result = await validateEinvoice(sample('ubl', file), 'ubl');
      expect(result).toMatchObject({ ok: true, stage: 'rules', problems: [] });
      expect(fatalRules(result)).toEqual([]);
    },
    30_000,
  );

  it('has samples of both syntaxes, invoices and a credit note', () => {
    expect(samples('cii').length).toBeGreaterThanOrEqual(5);
    expect(samples('ubl')).toContain('ubl-tc434-creditnote1.xml');
  });
});

describe('broken business rules are named', () => {
  it('CII: a grand total that is not net + VAT fails BR-CO-15, fatal, with its message and location', async () => {
    let xml = mutate(sample('cii', 'CII_example3.xml'), '<ram:GrandTotalAmount>1125<', '<ram:GrandTotalAmount>1126<');
    xml = mutate(xml, '<ram:DuePayableAmount>1125<', '<ram:DuePayableAmount>1126<'); // keeps BR-CO-16 satisfied
    const result = await validateEinvoice(xml, 'cii');
    expect(result.ok).toBe(false);
    expect(result.stage).toBe('rules');
    expect(fatalRules(result)).toEqual(['BR-CO-15']);
    expect(result.asserts[0]).toEqual({
      rule: 'BR-CO-15',
      flag: 'fatal',
      message: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
      location: '/CrossIndustryInvoice[1]',
    });
    expect(validationSummary(result)).toBe('Le XML CII enfreint les règles EN 16931 : BR-CO-15');
  });

  it('CII: a seller without a name fails BR-06', async () => {
    const xml = mutate(sample('cii', 'CII_example3.xml'), '<ram:Name>SubscriptionSeller</ram:Name>', '');
    const result = await validateEinvoice(xml, 'cii');
    expect(result.ok).toBe(false);
    expect(fatalRules(result)).toContain('BR-06');
    expect(result.asserts.find((a) => a.rule === 'BR-06')).toMatchObject({ flag: 'fatal', location: '/CrossIndustryInvoice[1]' });
  });

  it('UBL: wrong totals fail BR-CO-15; a seller without a name fails BR-06', async () => {
    const base = sample('ubl', 'ubl-tc434-example3.xml');
    let totals = mutate(base, '>2005.00</cbc:TaxInclusiveAmount>', '>2006.00</cbc:TaxInclusiveAmount>');
    totals = mutate(totals, '>2005.00</cbc:PayableAmount>', '>2006.00</cbc:PayableAmount>');
    const wrongTotals = await validateEinvoice(totals, 'ubl');
    expect(wrongTotals.ok).toBe(false);
    expect(fatalRules(wrongTotals)).toEqual(['BR-CO-15']);
    expect(wrongTotals.asserts[0]?.location).toBe('/Invoice[1]');

    const nameless = mutate(base, '<cbc:RegistrationName>SubscriptionSeller</cbc:RegistrationName>', '');
    expect(fatalRules(await validateEinvoice(nameless, 'ubl'))).toContain('BR-06');
  });

  it('UBL credit note: a missing currency fails BR-05 and the answer lists fatal asserts before warnings', async () => {
    const xml = mutate(sample('ubl', 'ubl-tc434-creditnote1.xml'), /<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>/, '');
    const result = await validateEinvoice(xml, 'ubl');
    expect(result.ok).toBe(false);
    expect(fatalRules(result)).toContain('BR-05');
    const flags = result.asserts.map((a) => a.flag);
    expect(flags).toEqual([...flags].sort((a, b) => (a === b ? 0 : a === 'fatal' ? -1 : 1)));
  });
});

describe('bad input answers a clear error, never a crash', () => {
  it.each([
    ['malformed XML', '<rsm:CrossIndustryInvoice><a></rsm:CrossIndustryInvoice>', /^Le fichier n’est pas un XML lisible \(ligne 1\) : /],
    ['an empty string', '', /^Le fichier n’est pas un XML lisible : Le document est vide$/],
    ['text that is not XML', 'Facture n° 12 : 100,00 €', /^Le fichier n’est pas un XML lisible/],
    ['a DOCTYPE (entity tricks)', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', /ne doit pas contenir de DOCTYPE/],
  ])('%s → stage xml', async (_label, xml, summary) => {
    for (const syntax of ['cii', 'ubl'] as const) {
      const result = await validateEinvoice(xml, syntax);
      expect(result).toMatchObject({ ok: false, stage: 'xml', asserts: [] });
      expect(result.problems.length).toBeGreaterThan(0);
      expect(validationSummary(result)).toMatch(summary);
    }
  });

  it('an element out of the CII schema is refused by the XSD with its line, and the rules are not run', async () => {
    const xml = mutate(sample('cii', 'CII_example3.xml'), '<ram:GrandTotalAmount>1125<', '<ram:GrandTotalAmount>1 125,00<');
    const result = await validateEinvoice(xml, 'cii');
    expect(result).toMatchObject({ ok: false, stage: 'schema', asserts: [] });
    expect(result.problems[0]?.message).toContain("'1 125,00' is not a valid value of the atomic type 'xs:decimal'");
    expect(result.problems[0]?.line).toBe(140);
    expect(validationSummary(result)).toMatch(/^Le XML CII ne respecte pas son schéma \(ligne 140\) : /);
  });

  it('a UBL invoice sent as CII, or a CII one as UBL, is refused by its root element', async () => {
    const asCii = await validateEinvoice(sample('ubl', 'ubl-tc434-example3.xml'), 'cii');
    expect(asCii).toMatchObject({ ok: false, stage: 'schema' });
    expect(asCii.problems[0]?.message).toMatch(/^Élément racine Invoice .* inattendu pour CII : attendu CrossIndustryInvoice/);
    const asUbl = await validateEinvoice(sample('cii', 'CII_example3.xml'), 'ubl');
    expect(asUbl).toMatchObject({ ok: false, stage: 'schema' });
    expect(asUbl.problems[0]?.message).toMatch(/inattendu pour UBL : attendu Invoice .* ou CreditNote/);
  });

  it('a localised amount in UBL (no XSD to stop it) makes the rules fail: reported, not thrown', async () => {
    const xml = mutate(sample('ubl', 'ubl-tc434-example3.xml'), '>2005.00</cbc:PayableAmount>', '>2 005,00</cbc:PayableAmount>');
    const result = await validateEinvoice(xml, 'ubl');
    expect(result).toMatchObject({ ok: false, stage: 'rules', asserts: [] });
    expect(validationSummary(result)).toMatch(/^Les règles EN 16931 n’ont pas pu être évaluées : .*2 005,00/);
  });

  it('validations of both syntaxes run side by side', async () => {
    const results = await Promise.all(
      [...samples('cii').map((f) => ['cii', f] as const), ...samples('ubl').map((f) => ['ubl', f] as const)]
        .slice(0, 4)
        .map(([syntax, file]) => validateEinvoice(sample(syntax, file), syntax)),
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
  });
});

describe('shipped artefacts', () => {
  it('each SEF was compiled from the XSLT beside it (else: npm run einvoice:sef)', () => {
    const manifest = JSON.parse(fs.readFileSync(artefactPath('sef/manifest.json'), 'utf8'));
    for (const [syntax, artefacts] of Object.entries(syntaxArtefacts)) {
      const sha = createHash('sha256')
        .update(fs.readFileSync(artefactPath(artefacts.xslt)))
        .digest('hex');
      expect(manifest[syntax], syntax).toMatchObject({ xslt: artefacts.xslt, xsltSha256: sha, sef: artefacts.sef });
      const sef = JSON.parse(fs.readFileSync(artefactPath(artefacts.sef), 'utf8'));
      expect(sef).toMatchObject({ N: 'package', relocatable: 'true', target: 'JS' });
    }
  });

  it('ships the EUPL licence and says where the artefacts come from', () => {
    expect(fs.readFileSync(artefactPath('LICENSE-EUPL-1.2.txt'), 'utf8')).toContain('EUROPEAN UNION PUBLIC LICENCE');
    const readme = fs.readFileSync(artefactPath('README.md'), 'utf8');
    expect(readme).toContain('ConnectingEurope/eInvoicing-EN16931');
    expect(readme).toContain('EUPL 1.2');
  });
});
