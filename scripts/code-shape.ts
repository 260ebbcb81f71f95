/**
 * The shape rules a review measures on the source: which server folder may import which, what a migration may import,
 * and the comments that point at things a reader of the repository cannot open. Used by `npm run metrics` to print the
 * counts and by the unit tests that hold them at zero.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * src/server's folders and top-level modules, lowest first. A module imports from its own layer or below: the
 * foundations know nothing of the database, the database nothing of the services, the services nothing of the doors.
 */
export const SERVER_LAYERS: readonly (readonly string[])[] = [
  ['clock', 'errors', 'logger', 'log-secrets', 'scoped-store', 'build-info', 'crypto', 'net', 'on-first-use', 'bounded-memo'],
  ['db'],
  ['env', 'metrics', 'auth', 'context', 'kept-answers', 'bank', 'payments', 'mail', 'einvoice', 'pdf', 'workers'],
  ['services', 'scheduler'],
  ['trpc', 'wire-transformer', 'door-formats', 'procedures', 'procedure-parsers', 'input-schemas', 'input-characters', 'routers'],
  ['http', 'openapi'],
  ['app', 'main', 'migrate', 'database-copy'],
];

/**
 * Entry points that sit on top whatever their folder: the worker thread's entry runs services in its own thread, as
 * main runs them in the process.
 */
const ENTRIES = ['workers/worker', 'workers/tasks'];

/** The folders and top-level modules of src/server that no layer lists: the import rule would pass them by. */
export function unlayeredServerModules(root: string): string[] {
  return readdirSync(join(root, 'src', 'server'))
    .map((name) => name.replace(/\.(ts|tsx|mts)$/, ''))
    .filter((name) => !name.endsWith('.d') && !SERVER_LAYERS.some((layer) => layer.includes(name)));
}

/** The layer of a file under src/server (its first folder, or its own name for a top-level module); undefined elsewhere. */
export function serverLayerOf(root: string, file: string): number | undefined {
  const path = relative(join(root, 'src', 'server'), file)
    .split(sep)
    .join('/')
    .replace(/\.(ts|tsx|mts)$/, '');
  if (path.startsWith('..')) return undefined;
  if (ENTRIES.includes(path)) return SERVER_LAYERS.length - 1;
  const head = path.split('/')[0] ?? '';
  const index = SERVER_LAYERS.findIndex((layer) => layer.includes(head));
  return index === -1 ? undefined : index;
}

/** Every .ts/.tsx file under the given folders of root (no declaration files, no generated styles). */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'styled-system' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const folder of folders) {
    try {
      walk(join(root, folder));
    } catch {
      // a folder the tree does not have
    }
  }
  return files;
}

/** An import of a file: the specifier, whether only types come through it, and its line. */
export type ImportOf = { specifier: string; typeOnly: boolean; line: number };

export function importsOf(file: string, text = readFileSync(file, 'utf8')): ImportOf[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: ImportOf[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = Boolean(
        clause?.isTypeOnly ||
          (clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)),
      );
      found.push({ specifier: node.moduleSpecifier.text, typeOnly, line: lineOf(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, line: lineOf(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export type Finding = { file: string; line: number; what: string };

/**
 * Value imports in src/server that reach a higher layer. A type-only import carries no code, so it does not count: a
 * lower layer may name the shape of what a higher one hands it (the worker pool, the tasks its entry runs).
 */
export function upwardImports(root: string): Finding[] {
  const findings: Finding[] = [];
  for (const file of sourceFiles(root, ['src/server'])) {
    const from = serverLayerOf(root, file);
    if (from === undefined) continue;
    for (const { specifier, typeOnly, line } of importsOf(file)) {
      if (typeOnly || !specifier.startsWith('.')) continue;
      const to = serverLayerOf(root, resolve(dirname(file), specifier));
      if (to !== undefined && to > from) findings.push({ file: relative(root, file), line, what: specifier });
    }
  }
  return findings;
}

/**
 * A migration's value imports of application code: its result must not change when today's code does, so it carries
 * its own copy of the logic it ran with. Types, the query builder and the dialect switches of db/dialect (which only say
 * how to write a statement for SQLite or PostgreSQL) are not application logic.
 */
export function migrationImports(root: string): Finding[] {
  const folder = resolve(root, 'src', 'server', 'db', 'migrations');
  const findings: Finding[] = [];
  for (const file of sourceFiles(root, ['src/server/db/migrations'])) {
    for (const { specifier, typeOnly, line } of importsOf(file)) {
      if (typeOnly || !specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(folder + sep) && target !== resolve(folder, '..', 'dialect'))
        findings.push({ file: relative(root, file), line, what: specifier });
    }
  }
  return findings;
}

/**
 * Mentions of the tracker's issues: the word issue and a number, or a number after # in brackets; not a path's `/issue`
 * before a status (`…/issue 200`). Looked for in every folder of code (TRACKER_FOLDERS).
 */
export const TRACKER_REFERENCE = /(?<!\/)\bissues? #?\d+|\(#\d+\)/gi;
export const TRACKER_FOLDERS = ['src', 'scripts', 'tests', 'build'] as const;
/** Mentions of documents kept outside the repository, looked for in src. */
export const OUTSIDE_DOCUMENT = /\b(?:CONTRACT|SPEC|STYLE|STACK|FRENCH-INVOICING)(?!\s*=)(?:\.md)?(?:\s*§\s*[\d.]+)?(?=[\s,.;:)'’»]|$)/g;

/** Where `pattern` occurs in the source files of `folders` (src by default). */
export function textMentions(root: string, pattern: RegExp, folders: readonly string[] = ['src']): Finding[] {
  const findings: Finding[] = [];
  for (const file of sourceFiles(root, folders)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        for (const match of text.matchAll(pattern)) findings.push({ file: relative(root, file), line: index + 1, what: match[0] });
      });
  }
  return findings;
}

/**
 * `css(` calls in client files that wrap an Ark UI component: those components are styled by the slot recipes of
 * theme/recipes (panda.config.ts), which lie outside src/client and are never counted.
 */
export function componentCssCalls(root: string): Finding[] {
  const findings: Finding[] = [];
  for (const file of sourceFiles(root, ['src/client'])) {
    const text = readFileSync(file, 'utf8');
    if (!/from '@ark-ui\/react/.test(text)) continue;
    text.split('\n').forEach((line, index) => {
      if (/\bcss\(/.test(line)) findings.push({ file: relative(root, file), line: index + 1, what: 'css(' });
    });
  }
  return findings;
}

/** Every `css(` call in the client, for the trend. */
export function cssCalls(root: string): number {
  let count = 0;
  for (const file of sourceFiles(root, ['src/client'])) count += readFileSync(file, 'utf8').match(/\bcss\(/g)?.length ?? 0;
  return count;
}

/** The files docs/ARCHITECTURE.md's « A document field » recipe lists (its numbered lines), or undefined without it. */
export function documentFieldFiles(root: string): number | undefined {
  let architecture: string;
  try {
    architecture = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
  } catch {
    return undefined;
  }
  const section = architecture.split(/^### /m).find((part) => part.startsWith('A document field'));
  return section?.split('\n').filter((line) => /^\d+\. /.test(line)).length;
}
