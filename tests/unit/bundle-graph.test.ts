import { describe, expect, it } from 'vitest';
import { bundleReport, staticClosure, type Manifest } from '../../scripts/bench/bundle-graph';

// A manifest shaped as Vite writes it: the entry imports a shared chunk and loads three pages on demand, one inside the
// shell (which has its own lazy overlays) and two sign-in pages outside it; the login page alone goes without the data
// layer, and the sign-in forms without Zod's set-up.
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: [
      'src/client/routes/auth/login-page.tsx',
      'src/client/routes/auth/register-page.tsx',
      'src/client/routes/home-page.tsx',
      'src/client/layouts/main-layout.tsx',
      'src/client/data-layer.tsx',
      'src/client/lib/zod-setup.ts',
    ],
  },
  '_react.js': { file: 'assets/react.js' },
  '_charts.js': { file: 'assets/charts.js', imports: ['_react.js'] },
  '_styles.css': { file: 'assets/styles.css' },
  'src/client/layouts/main-layout.tsx': { file: 'assets/main-layout.js', isDynamicEntry: true, imports: ['index.html'] },
  'src/client/components/global-overlays.tsx': { file: 'assets/overlays.js', isDynamicEntry: true, imports: ['index.html'] },
  'src/client/data-layer.tsx': { file: 'assets/data-layer.js', isDynamicEntry: true, imports: ['index.html', '_trpc.js'] },
  '_trpc.js': { file: 'assets/trpc.js' },
  'src/client/lib/zod-setup.ts': { file: 'assets/zod-setup.js', isDynamicEntry: true, imports: ['_zod.js'] },
  '_zod.js': { file: 'assets/zod.js' },
  'src/client/routes/auth/login-page.tsx': { file: 'assets/login.js', isDynamicEntry: true, imports: ['index.html', '_styles.css'] },
  'src/client/routes/auth/register-page.tsx': { file: 'assets/register.js', isDynamicEntry: true, imports: ['index.html', '_trpc.js'] },
  'src/client/routes/home-page.tsx': {
    file: 'assets/home.js',
    isDynamicEntry: true,
    imports: ['index.html', '_charts.js'],
    dynamicImports: ['_pdf.js'],
  },
  '_pdf.js': { file: 'assets/pdf.js' },
};
const sizes: Record<string, number> = {
  'assets/index.js': 100,
  'assets/react.js': 50,
  'assets/charts.js': 70,
  'assets/styles.css': 999,
  'assets/main-layout.js': 20,
  'assets/overlays.js': 5,
  'assets/login.js': 3,
  'assets/register.js': 4,
  'assets/data-layer.js': 1,
  'assets/trpc.js': 25,
  'assets/zod-setup.js': 2,
  'assets/zod.js': 24,
  'assets/home.js': 7,
  'assets/pdf.js': 400,
};
const size = (file: string) => sizes[file] ?? Number.NaN;

describe('bundle report', () => {
  it('follows static imports only, once each, and counts JavaScript only', () => {
    expect([...staticClosure(manifest, ['src/client/routes/home-page.tsx'])].sort()).toEqual([
      'assets/charts.js',
      'assets/home.js',
      'assets/index.js',
      'assets/react.js',
    ]);
  });

  it('adds the shell to the pages drawn inside it, the data layer to all but the login page, Zod to all but sign-in forms', () => {
    const { rows } = bundleReport(manifest, size);
    expect(rows).toEqual([
      { page: 'src/client/routes/auth/login-page.tsx', own: 3, route: 3, firstLoad: 153, files: 3 },
      // entry 150 + data layer 1 + its tRPC 25 + page 4
      { page: 'src/client/routes/auth/register-page.tsx', own: 4, route: 30, firstLoad: 180, files: 5 },
      // entry 150 + shell 20 + data layer 26 + Zod 26 + page 7 + its charts 70; neither the overlays (idle, on demand)
      // nor the PDF chunk it loads on demand are counted
      { page: 'src/client/routes/home-page.tsx', own: 7, route: 149, firstLoad: 299, files: 9 },
    ]);
  });

  it('names the largest file and sums every JavaScript file once', () => {
    const report = bundleReport(manifest, size);
    expect(report.largestChunk).toEqual({ file: 'assets/pdf.js', gzip: 400 });
    expect(report.totalJs).toBe(100 + 50 + 70 + 20 + 5 + 1 + 25 + 2 + 24 + 3 + 4 + 7 + 400);
  });

  it('fails loudly on a manifest that names a missing chunk', () => {
    expect(() => staticClosure(manifest, ['_nowhere.js'])).toThrow('Le manifeste ne contient pas _nowhere.js');
  });
});
