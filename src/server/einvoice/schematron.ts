import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { artefactPath, type RuleSet } from './artefacts';

/** One `svrl:failed-assert` of the EN 16931 schematron: `fatal` ones make the invoice non-compliant. */
export type FailedAssert = {
  /** The business rule, e.g. BR-CO-15. */
  rule: string;
  flag: 'fatal' | 'warning';
  message: string;
  /** Path of the element the rule fired on, e.g. /CrossIndustryInvoice[1]/SupplyChainTradeTransaction[1]. */
  location: string;
};

type SaxonJS = typeof import('saxon-js')['default'];

// SaxonJS (~0.2 s to load) and each SEF (5–7 MB of JSON) are loaded on the first validation, then kept (per process:
// shipped files, the same for all).
let saxon: Promise<SaxonJS> | undefined;
const stylesheets = new Map<string, unknown>();

function loadSaxon(): Promise<SaxonJS> {
  saxon ??= import('saxon-js').then((module) => module.default);
  return saxon;
}

function stylesheetFor(sef: string): unknown {
  let stylesheet = stylesheets.get(sef);
  if (stylesheet === undefined) {
    stylesheet = JSON.parse(fs.readFileSync(artefactPath(sef), 'utf8'));
    stylesheets.set(sef, stylesheet);
  }
  return stylesheet;
}

// One XPath over the SVRL report answers plain objects, so no XML walking happens in JavaScript.
const FAILED_ASSERTS = `//svrl:failed-assert ! map {
  'rule': string(@id), 'flag': string(@flag), 'location': string(@location), 'message': normalize-space(svrl:text)
}`;

type RawAssert = { rule: string; flag: string; location: string; message: string };

/** `/*:Invoice[namespace-uri()='…'][1]/*:ID[…][1]` → `/Invoice[1]/ID[1]`: the same path, readable. */
function shortLocation(location: string): string {
  return location.replace(/\*:([\w.-]+)\[namespace-uri\(\)='[^']*'\]/g, '$1');
}

function toFailedAssert(raw: RawAssert, unflagged: FailedAssert['flag']): FailedAssert {
  return {
    rule: raw.rule,
    flag: raw.flag === '' ? unflagged : raw.flag === 'fatal' ? 'fatal' : 'warning',
    // The text repeats the rule id as a prefix ("[BR-CO-15]-Invoice total…"): the id has its own field.
    message: raw.message.replace(/^\[[^\]]+\]-?\s*/, ''),
    location: shortLocation(raw.location),
  };
}

/** Runs one compiled schematron (EN 16931 or the French CIUS) on a well-formed XML; fatal asserts come first. */
export async function failedAsserts(xml: string, artefacts: RuleSet): Promise<FailedAssert[]> {
  const SaxonJS = await loadSaxon();
  const { principalResult } = SaxonJS.transform(
    {
      stylesheetInternal: stylesheetFor(artefacts.sef),
      // Relative document() calls (the Factur-X code lists) resolve beside the shipped XSLT.
      stylesheetBaseURI: pathToFileURL(artefactPath(artefacts.xslt)).href,
      sourceText: xml,
      destination: 'document',
    },
    'sync',
  );
  const raw = SaxonJS.XPath.evaluate(FAILED_ASSERTS, principalResult, {
    namespaceContext: { svrl: 'http://purl.oclc.org/dsdl/svrl' },
    resultForm: 'array',
  }) as RawAssert[];
  const asserts = raw.map((r) => toFailedAssert(r, artefacts.unflagged ?? 'warning'));
  return [...asserts.filter((a) => a.flag === 'fatal'), ...asserts.filter((a) => a.flag === 'warning')];
}
