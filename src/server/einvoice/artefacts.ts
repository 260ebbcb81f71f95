import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The two EN 16931 syntaxes: UN/CEFACT CII D16B (Factur-X's) and OASIS UBL 2.1. */
export type EinvoiceSyntax = 'cii' | 'ubl';

type RootElement = { namespace: string; name: string };

export type SyntaxArtefacts = {
  label: string;
  /** The XML Schema to pass first, relative to the artefacts folder; the official artefacts ship none for UBL. */
  xsd: string | null;
  /** The schematron compiled to XSLT 2.0 (the source of the SEF). */
  xslt: string;
  /** The XSLT compiled by xslt3 into a SaxonJS export file (`npm run einvoice:sef`). */
  sef: string;
  /** The document elements the rules apply to: the schematron passes silently on any other root. */
  roots: RootElement[];
  hoist: true;
};

export const syntaxArtefacts: Record<EinvoiceSyntax, SyntaxArtefacts> = {
  cii: {
    label: 'CII',
    xsd: 'cii/schema/CII/uncefact/standard/CrossIndustryInvoice_100pD16B.xsd',
    xslt: 'cii/xslt/EN16931-CII-validation.xslt',
    sef: 'sef/cii.sef.json',
    hoist: true,
    roots: [{ namespace: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100', name: 'CrossIndustryInvoice' }],
  },
  ubl: {
    label: 'UBL',
    xsd: null,
    xslt: 'ubl/xslt/EN16931-UBL-validation.xslt',
    sef: 'sef/ubl.sef.json',
    hoist: true,
    roots: [
      { namespace: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', name: 'Invoice' },
      { namespace: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2', name: 'CreditNote' },
    ],
  },
};

/** A schematron compiled to XSLT 2.0, and the SaxonJS export file (SEF) xslt3 makes of it (`npm run einvoice:sef`). */
export type RuleSet = {
  label: string;
  xslt: string;
  sef: string;
  /** What an assert without a flag is: the Factur-X schematron flags none, and each of its asserts is an error. */
  unflagged?: 'fatal' | 'warning';
  /**
   * Compile with the absolute paths hoisted (scripts/einvoice-sef-hoist.ts): the EN 16931 rules, checked to answer the
   * same asserts and run at every issue. The French and Factur-X ones run in the tests and the bench only, unrewritten.
   */
  hoist?: boolean;
};

/**
 * The French CIUS (FNFE-MPE BR-FR-Flux2, the rules every Plateforme Agréée applies), run after the EN 16931 rules of
 * the same syntax. Only the strict release is run: its `_WARNING` twin (shipped beside it, read by the bench) flags a
 * subset of the same rules as warnings, so it would add no assert of its own.
 */
export const frenchRules: Record<EinvoiceSyntax, RuleSet> = {
  cii: { label: 'BR-FR CII', xslt: 'france/cii/BR-FR-Flux2-Schematron-CII.xslt', sef: 'sef/fr-cii.sef.json' },
  ubl: { label: 'BR-FR UBL', xslt: 'france/ubl/BR-FR-Flux2-Schematron-UBL.xslt', sef: 'sef/fr-ubl.sef.json' },
};

/**
 * Factur-X 1.09, EN 16931 profile: the schema and the schematron (EN 16931 plus Factur-X's own code lists, read from
 * `FACTUR-X_EN16931_codedb.xml` beside the XSLT) the XML embedded in a Factur-X PDF must pass.
 */
export const facturxArtefacts = {
  xsd: 'france/facturx/xsd/Factur-X_EN16931.xsd',
  rules: {
    label: 'Factur-X 1.09 EN 16931',
    xslt: 'france/facturx/FACTUR-X_EN16931.xslt',
    sef: 'sef/facturx.sef.json',
    unflagged: 'fatal',
  } satisfies RuleSet as RuleSet,
};

/**
 * The lifecycle message of the reform (CDAR D22B, « CDV »): the UN/CEFACT schema, then the FNFE-MPE BR-FR-CDV rules
 * (status codes, reasons, references), both from the same France_RFE release.
 */
export const cdarArtefacts = {
  xsd: 'france/cdar/xsd/CrossDomainAcknowledgementAndResponse_100pD22B.xsd',
  rules: {
    label: 'BR-FR-CDV',
    xslt: 'france/cdar/BR-FR-CDV-Schematron-CDAR.xslt',
    sef: 'sef/cdar.sef.json',
  } satisfies RuleSet as RuleSet,
};

/**
 * The e-reporting file (Flux 10, 10.1 to 10.4): the PPF's schema, then its schematron (Annexe 7 rules), both as the
 * PPF published them (AIFE Flux 10 v1.0, carried by phax/phive-rules under Apache-2.0).
 */
export const flux10Artefacts = {
  xsd: 'france/flux10/xsd/ereporting.xsd',
  rules: {
    label: 'PPF Flux 10',
    xslt: 'france/flux10/PPF_Flux10_v1_0.xslt',
    sef: 'sef/flux10.sef.json',
  } satisfies RuleSet as RuleSet,
};

/** Every XSLT the SEF step compiles, by its key in sef/manifest.json. */
export const compiledRuleSets: Record<string, RuleSet> = {
  cii: syntaxArtefacts.cii,
  ubl: syntaxArtefacts.ubl,
  'fr-cii': frenchRules.cii,
  'fr-ubl': frenchRules.ubl,
  facturx: facturxArtefacts.rules,
  cdar: cdarArtefacts.rules,
  flux10: flux10Artefacts.rules,
};

/**
 * The project root, found from this module's own place so that the same code works from src/server/einvoice
 * (tests, tsx) and from the bundled dist/server/main.js, whatever the working directory.
 */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Racine du projet introuvable (package.json) pour les artefacts EN 16931');
    dir = parent;
  }
  return dir;
}

/** The official EN 16931 validation artefacts shipped with the product (see artefacts/README.md). */
export const artefactsDir = path.join(projectRoot(), 'src', 'server', 'einvoice', 'artefacts');

export function artefactPath(relative: string): string {
  return path.join(artefactsDir, relative);
}
