// Ark's select, combobox, checkbox, number input, tabs, tooltip, menu and dialog download when idle or on first use, through their light wrappers
// (components/ui/<name>.tsx, with lib/lazy-page.ts). One static import of an Ark part from a page would put its machine back
// in that page's first load, silently: only its wrapper may import it (and, for the dialog, the overlays that already
// come in their own lazy chunk).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLIENT = path.resolve('src/client');
const partOf = (name: string) => new RegExp(`['"][./]*(?:components/)?(?:ui/)?ark-${name}['"]`);
const HEAVY = [
  { module: partOf('select'), allowed: ['components/ui/select.tsx'] },
  { module: partOf('tooltip'), allowed: ['components/ui/tooltip.tsx'] },
  { module: partOf('combobox'), allowed: ['components/ui/combobox.tsx'] },
  { module: partOf('checkbox'), allowed: ['components/ui/checkbox.tsx'] },
  { module: partOf('number-input'), allowed: ['components/ui/number-input.tsx'] },
  { module: partOf('tabs'), allowed: ['components/ui/tabs.tsx'] },
  { module: partOf('action-menu'), allowed: ['components/ui/action-menu.tsx'] },
  {
    module: partOf('dialog'),
    allowed: [
      'components/ui/dialog.tsx',
      'components/confirm-dialog.tsx',
      'components/feedback-dialog.tsx',
      'components/settings-panel.tsx',
    ],
  },
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
  it('only their light wrappers import the Ark parts', () => {
    const offenders: string[] = [];
    for (const file of sources(CLIENT)) {
      const relative = path.relative(CLIENT, file).split(path.sep).join('/');
      for (const heavy of HEAVY) {
        if (heavy.allowed.includes(relative)) continue;
        if (staticImports(fs.readFileSync(file, 'utf8')).some((spec) => heavy.module.test(spec))) offenders.push(relative);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('sees a static import, and lets a type import through', () => {
    const found = staticImports("import { ArkSelect } from '../../components/ui/ark-select';\nimport type { X } from './ark-select';");
    expect(found).toEqual(["'../../components/ui/ark-select'"]);
    expect(found.every((spec) => partOf('select').test(spec))).toBe(true);
    expect(partOf('select').test("'./ark-select-search'")).toBe(false);
  });
});
