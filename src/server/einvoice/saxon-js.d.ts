// The part of SaxonJS 2.7's API (https://www.saxonica.com/saxon-js/documentation2/) that the validator uses;
// the package ships no types.
declare module 'saxon-js' {
  type TransformOptions = {
    /** A SEF already parsed from JSON: loaded once, reused for every invoice. */
    stylesheetInternal: unknown;
    /** The static base URI relative document() calls resolve against. */
    stylesheetBaseURI?: string;
    sourceText: string;
    destination: 'document';
  };
  type XPathOptions = { namespaceContext?: Record<string, string>; resultForm?: 'array' | 'default' };
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): { principalResult: unknown };
    XPath: { evaluate(expression: string, context: unknown, options?: XPathOptions): unknown };
  };
  export default SaxonJS;
}
