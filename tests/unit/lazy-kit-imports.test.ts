// Issue 22: Ark's select and tooltip download when idle or on first use (components/ui/lazy-select.tsx, tooltip.tsx).
// One static import of them from a page would put their machines back in that page's first load, silently: only the
// light wrappers may import them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT = path.resolve('src/client');
const HEAVY = [
  { module: /['"][./]*(?:components\/)?ui\/select['"]|['"]\.\/select['"]/, allowed: 'components/ui/lazy-select.tsx' },
  { module: /['"][./]*(?:components\/)?ui\/ark-tooltip['"]|['"]\.\/ark-tooltip['"]/, allowed: 'components/ui/tooltip.tsx' },
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The static (non-type) imports of a file: `import … from '…'` and `export … from '…'`, not `import type`. */
function staticImports(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+(['"][^'"]+['"])/gms)].map((m) => m[1] ?? '');
}

describe('Ark parts loaded lazily', () => {
  it('only their light wrappers import the Ark select and tooltip', () => {
    const offenders: string[] = [];
    for (const file of sources(CLIENT)) {
      const relative = path.relative(CLIENT, file).split(path.sep).join('/');
      for (const heavy of HEAVY) {
        if (relative === heavy.allowed) continue;
        if (staticImports(fs.readFileSync(file, 'utf8')).some((spec) => heavy.module.test(spec))) offenders.push(relative);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('sees a static import, and lets a type import through', () => {
    expect(staticImports("import { Select } from '../../components/ui/select';\nimport type { X } from './select';")).toEqual([
      "'../../components/ui/select'",
    ]);
  });
});
