import fs from 'node:fs';
import path from 'node:path';
import type { XmlDocument, XmlInputProvider, XsdValidator } from 'libxml2-wasm';
import { artefactPath, artefactsDir, type SyntaxArtefacts } from './artefacts';

/** A well-formedness or XML Schema error, where libxml2 found it. */
export type XmlProblem = { message: string; line: number; column: number };

type Libxml = typeof import('libxml2-wasm');

// Loaded on the first validation, not at server start: the wasm module costs its load time only to those who validate.
// Compiled from the shipped schemas, the same in every process: kept per process.
let libxml: Promise<Libxml> | undefined;
const validators = new Map<string, Promise<XsdValidator>>();

/**
 * The only files libxml2 may open are the shipped schemas: an invoice's DOCTYPE or XInclude can never make it
 * read another file of the server.
 */
function schemaFilesOnly(): XmlInputProvider {
  const inside = (filename: string): string | null => {
    const file = path.resolve(filename.startsWith('file://') ? new URL(filename).pathname : filename);
    return file.startsWith(`${artefactsDir}${path.sep}`) && file.endsWith('.xsd') && fs.existsSync(file) ? file : null;
  };
  return {
    match: (filename) => inside(filename) !== null,
    open: (filename) => {
      const file = inside(filename);
      return file === null ? undefined : fs.openSync(file, 'r');
    },
    read: (fd, buffer) => fs.readSync(fd, buffer, 0, buffer.byteLength, null),
    close: (fd) => {
      fs.closeSync(fd);
      return true;
    },
  };
}

function loadLibxml(): Promise<Libxml> {
  libxml ??= import('libxml2-wasm').then((module) => {
    module.xmlRegisterInputProvider(schemaFilesOnly());
    return module;
  });
  return libxml;
}

function problemsOf(error: unknown): XmlProblem[] {
  const details = (error as { details?: { message: string; line: number; col: number }[] }).details;
  if (details && details.length > 0) {
    return details.map((d) => ({ message: d.message.trim(), line: d.line, column: d.col }));
  }
  return [{ message: error instanceof Error ? error.message : String(error), line: 0, column: 0 }];
}

/** Parses an invoice with libxml2's defaults: no entity expansion, no DTD loading, no network. */
export async function parseInvoice(xml: string): Promise<{ doc: XmlDocument } | { problems: XmlProblem[] }> {
  if (xml.trim() === '') return { problems: [{ message: 'Le document est vide', line: 0, column: 0 }] };
  const { XmlDocument } = await loadLibxml();
  try {
    const doc = XmlDocument.fromString(xml);
    if (doc.dtd) {
      doc.dispose();
      // An e-invoice never carries one; refusing it keeps entity tricks away from the XSLT engine's own parser.
      return { problems: [{ message: 'Une facture électronique ne doit pas contenir de DOCTYPE', line: 1, column: 1 }] };
    }
    return { doc };
  } catch (error) {
    return { problems: problemsOf(error) };
  }
}

export function rootProblem(doc: XmlDocument, artefacts: SyntaxArtefacts): XmlProblem | null {
  const root = doc.root;
  if (artefacts.roots.some((r) => r.namespace === root.namespaceUri && r.name === root.name)) return null;
  const expected = artefacts.roots.map((r) => `${r.name} (${r.namespace})`).join(' ou ');
  return {
    message: `Élément racine ${root.name} (${root.namespaceUri || 'sans espace de noms'}) inattendu pour ${artefacts.label} : attendu ${expected}`,
    line: root.line,
    column: 0,
  };
}

async function loadValidator(xsd: string): Promise<XsdValidator> {
  const { XmlDocument, XsdValidator } = await loadLibxml();
  const file = artefactPath(xsd);
  // The schema document stays alive with its validator (libxml2's parsed schema may point into it), for the
  // life of the process like the validator itself.
  const schema = XmlDocument.fromString(fs.readFileSync(file, 'utf8'), { url: file });
  return XsdValidator.fromDoc(schema);
}

function validatorFor(xsd: string): Promise<XsdValidator> {
  let validator = validators.get(xsd);
  if (!validator) {
    validator = loadValidator(xsd);
    validators.set(xsd, validator);
  }
  return validator;
}

export async function schemaProblems(doc: XmlDocument, xsd: string): Promise<XmlProblem[]> {
  const validator = await validatorFor(xsd);
  try {
    validator.validate(doc);
    return [];
  } catch (error) {
    return problemsOf(error);
  }
}
