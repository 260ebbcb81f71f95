/**
 * Counts what a review of the code measures across src/, scripts/, tests/ and build/: `any` types, `as` casts (other than
 * `as const`), non-null assertions and lines over 160 characters; then the shape rules of scripts/code-shape.ts (upward
 * imports, migrations importing live code, mentions of the tracker or of documents outside the repository, component
 * styles outside the recipes). Run: `npm run metrics [-- dir] [-- --list]`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import {
  componentCssCalls,
  cssCalls,
  documentFieldFiles,
  type Finding,
  migrationImports,
  OUTSIDE_DOCUMENT,
  TRACKER_FOLDERS,
  TRACKER_REFERENCE,
  textMentions,
  upwardImports,
} from './code-shape';

const list = process.argv.includes('--list');
const root = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '.';
const files: string[] = [];
function walk(dir: string) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'styled-system' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
}
for (const dir of ['src', 'scripts', 'tests', 'build']) {
  try {
    walk(join(root, dir));
  } catch {
    // a folder the tree does not have
  }
}

const counts = { files: files.length, any: 0, asCasts: 0, asAny: 0, nonNull: 0, longLines: 0 };
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  counts.longLines += text.split('\n').filter((line) => line.length > 160).length;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) counts.any += 1;
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText() === 'const')) {
      counts.asCasts += 1;
      if (node.type.kind === ts.SyntaxKind.AnyKeyword) counts.asAny += 1;
    }
    if (ts.isNonNullExpression(node)) counts.nonNull += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(JSON.stringify(counts));

const shape: Record<string, Finding[]> = {
  upwardImports: upwardImports(root),
  migrationsImportingSrc: migrationImports(root),
  trackerReferences: textMentions(root, TRACKER_REFERENCE, TRACKER_FOLDERS),
  outsideDocumentsInSrc: textMentions(root, OUTSIDE_DOCUMENT),
  componentCssOutsideTheme: componentCssCalls(root),
};
console.log(
  JSON.stringify({
    documentFieldFiles: documentFieldFiles(root) ?? null,
    cssCalls: cssCalls(root),
    ...Object.fromEntries(Object.entries(shape).map(([name, findings]) => [name, findings.length])),
  }),
);
if (list) {
  for (const [name, findings] of Object.entries(shape)) {
    for (const { file, line, what } of findings) console.log(`${name}\t${file}:${line}\t${what}`);
  }
}
