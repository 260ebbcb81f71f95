/**
 * The official EN 16931 schematron XSLTs test many rules per invoice line with absolute paths
 * (`//rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax` in BR-CO-04's
 * context, `/rsm:CrossIndustryInvoice/…/ram:SellerTradeParty/…` in BR-S-02's, `//ram:CategoryCode` …). SaxonJS
 * evaluates such a path again at every line, and each walk crosses all the lines: validation grew with the square of
 * the line count (CPU, CII: 300 lines 4.0 s, 1,000 lines 32.7 s, 2,000 lines 141.6 s).
 *
 * Each leading chain of plain steps of an absolute path is the same node sequence wherever it is evaluated, so it is
 * computed once as a global variable and the rule reads the variable: `//a:b/c:d[p]` becomes `$hoisted-n/c:d[p]`
 * with `$hoisted-n := //a:b`. The rules are unchanged (same tests on the same nodes, same messages); only the
 * compiled copy is rewritten, never the committed official file.
 */

// A path that starts at the root: `/` or `//`, not after something it would continue (a name, `)`, `]`, `$x`, `.`).
const ABSOLUTE_CHAIN = /(?<![\w)\]$:.\-@*/])(\/\/?)([A-Za-z][\w-]*:[A-Za-z][\w-]*(?:\/[A-Za-z][\w-]*:[A-Za-z][\w-]*)*)(\[?)/g;

/** Rewrites the absolute paths of one XPath expression outside its string literals; `name` names a hoisted path. */
function hoistExpression(expression: string, name: (path: string) => string): string {
  // Even parts are code, odd parts are literals ('…' or "…", the XSLT attribute holding &quot; or &apos; escapes).
  return expression
    .split(/('[^']*'|&apos;.*?&apos;|&quot;.*?&quot;)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(ABSOLUTE_CHAIN, (whole, lead: string, chain: string, bracket: string) => {
            const steps = chain.split('/');
            // `//x[p]` filters each step's own children (a position in p would count per parent): the last step and its
            // predicate stay in place, and a lone step is left as it is.
            const kept = bracket ? steps.pop() : undefined;
            if (steps.length === 0) return whole;
            return `$${name(lead + steps.join('/'))}${kept ? `/${kept}` : ''}${bracket}`;
          }),
    )
    .join('');
}

/** The rule templates' `test` and `select` expressions with their absolute paths hoisted into global variables. */
export function hoistAbsolutePaths(xslt: string): { xslt: string; hoisted: number } {
  const firstRule = '<xsl:template match="/">';
  const at = xslt.indexOf(firstRule);
  if (at === -1) throw new Error('XSLT de schematron inattendu : pas de <xsl:template match="/">');
  if (xslt.includes('$hoisted-')) throw new Error('XSLT de schematron inattendu : il utilise déjà $hoisted-');
  const names = new Map<string, string>();
  const name = (path: string) => {
    let found = names.get(path);
    if (!found) {
      found = `hoisted-${names.size + 1}`;
      names.set(path, found);
    }
    return found;
  };
  const rules = xslt
    .slice(at)
    .replace(
      /\b(test|select)="([^"]*)"/g,
      (_, attribute: string, expression: string) => `${attribute}="${hoistExpression(expression, name)}"`,
    );
  const declarations = [...names].map(([path, variable]) => `<xsl:variable name="${variable}" select="${path}"/>\n`).join('');
  return { xslt: xslt.slice(0, at) + declarations + rules, hoisted: names.size };
}

/**
 * `A/B`, where B is a child or attribute step, sorts its result into document order (and drops duplicates): SaxonJS
 * cannot tell that the nodes of `A` already are in that order, so it sorts, and it compares two nodes by walking their
 * siblings. The invoice lines are siblings, so each comparison crossed up to all of them and a sort of the lines'
 * amounts (BR-CO-10's `sum(../../ram:IncludedSupplyChainTradeLineItem/…/ram:LineTotalAmount)`, BR-S-08's per rate…)
 * cost the square of the line count: 2,000 lines 13 s, 10,000 lines minutes.
 *
 * `A ! B` (XPath 3.0's simple map) gives, for each node of `A` in turn, its B children: when `A` is in document order
 * without duplicates, that is the same nodes in the same order, without a sort. Every left side rewritten is such a
 * sequence: a step (`ram:X`, `ram:X[p]`, `.`, `..`, an axis step), a chain of them (itself rewritten the same way),
 * `//ram:X`, or a hoisted absolute path; a parenthesized expression, a function's result and any other variable
 * keep their `/`. A right side `..` (several children share a parent) keeps it too.
 */
const CHILD_STEP_SLASH = /(?<![/])\/(?![/])(?=(?:@?(?:[A-Za-z_][\w.-]*:)?(?:[A-Za-z_][\w.-]*|\*)(?![\w.(:-])|text\(\)|node\(\)))/g;
/** The step just before a `/`: `$`, then a name or `.`/`..`, with its predicates (one level of brackets). */
const STEP_BEFORE = /(\$?)([\w.:-]*(?:\[[^[\]]*\])*)$/;

function mapExpression(expression: string): string {
  // String literals are masked (same length, no path characters) so that a step's predicate may hold one.
  const code = expression.replace(/'[^']*'|&apos;.*?&apos;|&quot;.*?&quot;/g, (literal) => '_'.repeat(literal.length));
  let out = '';
  let from = 0;
  for (const match of code.matchAll(CHILD_STEP_SLASH)) {
    const before = code.slice(0, match.index);
    const step = STEP_BEFORE.exec(before);
    if (!step?.[2] || !/[\w\].]$/.test(before)) continue;
    if (step[1] === '$' && !step[2].startsWith('hoisted-')) continue;
    out += `${expression.slice(from, match.index)} ! `;
    from = match.index + 1;
  }
  return out + expression.slice(from);
}

/** The rule templates' `test` and `select` expressions with their child steps mapped (`A ! B`) rather than sorted. */
export function mapChildSteps(xslt: string): { xslt: string; mapped: number } {
  const firstRule = '<xsl:template match="/">';
  const at = xslt.indexOf(firstRule);
  if (at === -1) throw new Error('XSLT de schematron inattendu : pas de <xsl:template match="/">');
  let mapped = 0;
  const rules = xslt.slice(at).replace(/\b(test|select)="([^"]*)"/g, (_, attribute: string, expression: string) => {
    const rewritten = mapExpression(expression);
    if (rewritten !== expression) mapped += 1;
    return `${attribute}="${rewritten}"`;
  });
  return { xslt: xslt.slice(0, at) + rules, mapped };
}
