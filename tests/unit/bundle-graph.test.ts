import { describe, expect, it } from 'vitest';
import { bundleReport, staticClosure, type Manifest } from '../../scripts/bench/bundle-graph';

// A manifest shaped as Vite writes it: the entry imports a shared chunk and loads two pages on demand, one inside the
// shell (which has its own lazy overlay) and one sign-in page outside it.
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: ['src/client/routes/auth/login-page.tsx', 'src/client/routes/home-page.tsx', 'src/client/layouts/main-layout.tsx'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_charts.js': { file: 'assets/charts.js', imports: ['_react.js'] },
  '_styles.css': { file: 'assets/styles.css' },
  'src/client/layouts/main-layout.tsx': { file: 'assets/main-layout.js', isDynamicEntry: true, imports: ['index.html'] },
  'src/client/components/global-overlays.tsx': { file: 'assets/overlays.js', isDynamicEntry: true, imports: ['index.html'] },
  'src/client/routes/auth/login-page.tsx': { file: 'assets/login.js', isDynamicEntry: true, imports: ['index.html', '_styles.css'] },
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

  it('adds the shell to the pages drawn inside it, not to the sign-in pages', () => {
    const { rows } = bundleReport(manifest, size);
    expect(rows).toEqual([
      { page: 'src/client/routes/auth/login-page.tsx', own: 3, route: 3, firstLoad: 153, files: 3 },
      // entry 150 + shell 20 + overlays 5 + page 7 + its charts 70; the PDF chunk it loads on demand is not counted
      { page: 'src/client/routes/home-page.tsx', own: 7, route: 102, firstLoad: 252, files: 6 },
    ]);
  });

  it('names the largest file and sums every JavaScript file once', () => {
    const report = bundleReport(manifest, size);
    expect(report.largestChunk).toEqual({ file: 'assets/pdf.js', gzip: 400 });
    expect(report.totalJs).toBe(100 + 50 + 70 + 20 + 5 + 3 + 7 + 400);
  });

  it('fails loudly on a manifest that names a missing chunk', () => {
    expect(() => staticClosure(manifest, ['_nowhere.js'])).toThrow('Le manifeste ne contient pas _nowhere.js');
  });
});
