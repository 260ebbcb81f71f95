import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtServerDir } from '../helpers/built-server';

/**
 * The packages the built server loads before it listens: the files `dist/server/main.js` imports statically, and those
 * they import, read from the bundle itself. Everything else (the e-invoice validator, Chromium's driver, the PDF and
 * XML libraries, Stripe, mail, PostgreSQL's driver…) is loaded by `import()` or `onFirstUse` the first time a feature
 * needs it, so that an idle process stays small; zod and kysely are bundled, only their used parts kept.
 */
const STARTING_PACKAGES = ['@oslojs/encoding', 'better-sqlite3', 'big.js', 'croner', 'superjson'];

/** Packages that weigh megabytes once loaded: reachable from the start only through a dynamic load. */
const HEAVY_PACKAGES = [
  'saxon-js',
  'libxml2-wasm',
  'playwright-core',
  'pdf-lib',
  'stripe',
  'nodemailer',
  'pg',
  'qrcode',
  '@node-rs/argon2',
];

const STATIC_IMPORT = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g;

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Bare specifiers (not `node:` built-ins) reached by static imports from `entry`, with the bundle file importing each. */
function staticPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.set(packageOf(specifier), path.basename(file));
    }
  };
  visit(entry);
  return packages;
}

describe('what the built server loads at start', () => {
  it('only the light packages it needs to listen; the heavy ones on first use', async () => {
    const dir = await builtServerDir();
    const main = path.join(dir, 'main.js');
    const loaded = staticPackages(main);
    expect([...loaded.keys()].sort()).toEqual(STARTING_PACKAGES);
    // The walk does see a heavy package imported statically: the worker thread's entry imports pdf-lib at its start.
    expect(staticPackages(path.join(dir, 'worker.js')).has('pdf-lib')).toBe(true);
    // Each heavy package is still part of the server, behind a dynamic load (by name in the bundle).
    const bundle = [main, ...fs.readdirSync(path.join(dir, 'chunks')).map((f) => path.join(dir, 'chunks', f))]
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    for (const name of HEAVY_PACKAGES.filter((n) => n !== 'pdf-lib')) expect(bundle, name).toContain(`"${name}"`);
    for (const name of HEAVY_PACKAGES) expect(loaded.has(name), `${name} loaded at start by ${loaded.get(name)}`).toBe(false);
  }, 120_000);
});
