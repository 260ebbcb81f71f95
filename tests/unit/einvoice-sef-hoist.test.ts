import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hoistAbsolutePaths, mapChildSteps } from '../../scripts/einvoice-sef-hoist';
import { artefactPath, syntaxArtefacts } from '../../src/server/einvoice/artefacts';
import { validateEinvoice } from '../../src/server/einvoice/validate';
import { largeSupplierCii } from '../helpers/large-einvoice';

const stylesheet = (rules: string) =>
  `<xsl:stylesheet version="2.0"><xsl:template match="/" mode="x"/><xsl:template match="/">${rules}</xsl:template></xsl:stylesheet>`;

describe('the schematron compiled with its absolute paths hoisted', () => {
  it('computes each leading chain of an absolute path once, as a global variable, and leaves the rest in place', () => {
    const { xslt, hoisted } = hoistAbsolutePaths(
      stylesheet(
        `<xsl:when test="//rsm:T/ram:S/ram:Tax"/><xsl:when test="count(//rsm:T/ram:S/ram:Tax[ram:C='S']) = 1 and /rsm:I/rsm:T/ram:A"/>`,
      ),
    );
    expect(hoisted).toBe(3);
    expect(xslt).toContain('<xsl:variable name="hoisted-1" select="//rsm:T/ram:S/ram:Tax"/>');
    expect(xslt).toContain('<xsl:variable name="hoisted-2" select="//rsm:T/ram:S"/>');
    expect(xslt).toContain('<xsl:variable name="hoisted-3" select="/rsm:I/rsm:T/ram:A"/>');
    expect(xslt).toContain(`<xsl:when test="$hoisted-1"/><xsl:when test="count($hoisted-2/ram:Tax[ram:C='S']) = 1 and $hoisted-3"/>`);
  });

  it('leaves relative paths, a lone step with its predicate (a position counts per parent) and string literals', () => {
    const rules = `<xsl:when test="ram:A/ram:B and (ram:C)/ram:D and //ram:E[1] and . = '//ram:F/ram:G' and $x/ram:H"/>`;
    expect(hoistAbsolutePaths(stylesheet(rules))).toEqual({ xslt: stylesheet(rules), hoisted: 0 });
  });

  it('leaves the templates before the rules (the paths of the report) and the match patterns alone', () => {
    const source = `<xsl:stylesheet version="2.0"><xsl:template match="//ram:X/ram:Y" mode="m"><xsl:value-of select="//ram:P/ram:Q"/></xsl:template><xsl:template match="/"><xsl:apply-templates select="/" mode="M1"/></xsl:template><xsl:template match="//ram:X/ram:Y" mode="M1"/></xsl:stylesheet>`;
    expect(hoistAbsolutePaths(source)).toEqual({ xslt: source, hoisted: 0 });
  });

  it('hoists the per-line paths of the official CII rules (BR-CO-04 read the header taxes at every line)', () => {
    const official = fs.readFileSync(artefactPath(syntaxArtefacts.cii.xslt), 'utf8');
    const { xslt } = hoistAbsolutePaths(official);
    const lineRule = /<xsl:template match="\/\/ram:IncludedSupplyChainTradeLineItem" mode="M10"[\s\S]*?<\/xsl:template>/;
    expect(lineRule.exec(official)?.[0]).toContain(
      'test="//rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax"',
    );
    expect(lineRule.exec(xslt)?.[0]).not.toMatch(/test="\/\//);
  });

  it.each([
    ['a sum over the lines', 'sum(../../ram:Line/ram:Settlement/ram:Total)', 'sum(../.. ! ram:Line ! ram:Settlement ! ram:Total)'],
    ['a step with its predicate', "ram:Tax[ram:Code='S']/ram:Basis", "ram:Tax[ram:Code='S'] ! ram:Basis"],
    ['an attribute and a comparison', "ram:ID/@schemeID = 'VA'", "ram:ID ! @schemeID = 'VA'"],
    ['a hoisted path', '$hoisted-2/ram:Tax', '$hoisted-2 ! ram:Tax'],
    ['a descendant path then a child', '//ram:A/ram:B', '//ram:A ! ram:B'],
    ['text()', 'ram:Name/text()', 'ram:Name ! text()'],
  ])('maps the child steps of %s instead of sorting them', (_, expression, mapped) => {
    expect(mapChildSteps(stylesheet(`<xsl:when test="${expression}"/>`))).toEqual({
      xslt: stylesheet(`<xsl:when test="${mapped}"/>`),
      mapped: 1,
    });
  });

  it.each([
    ['a parent of several nodes (duplicates)', 'ram:Line/..'],
    ['a parenthesized sequence (any order)', '(ram:B, ram:A)/ram:C'],
    ['a variable of the rule (any sequence)', '$rate/ram:C'],
    ['a function result', 'xs:decimal(.)/ram:C'],
    ['a leading or double slash', '/rsm:Invoice and //ram:A'],
    ['a string literal', "ram:A = 'x/ram:B'"],
    ['a division and a last step computing a value', 'ram:A div 2 and ram:B/xs:decimal(.)'],
  ])('leaves %s as it is', (_, expression) => {
    const source = stylesheet(`<xsl:when test="${expression}"/>`);
    expect(mapChildSteps(source)).toEqual({ xslt: source, mapped: 0 });
  });

  it('validates in time linear in the lines: 4 × the lines cost far less than 16 × the CPU', async () => {
    const cpu = async (bytes: number) => {
      const { xml } = largeSupplierCii(bytes);
      const before = process.cpuUsage();
      const result = await validateEinvoice(xml.toString(), 'cii');
      const used = process.cpuUsage(before);
      expect(result.ok).toBe(true);
      return used.user + used.system;
    };
    await cpu(50_000); // loads the validator
    const small = await cpu(200_000);
    const large = await cpu(800_000);
    console.log(`EN 16931 validation CPU: ~200 lines ${(small / 1000).toFixed(0)} ms, ~800 lines ${(large / 1000).toFixed(0)} ms`);
    expect(large / small).toBeLessThan(8);
  }, 120_000);
});
