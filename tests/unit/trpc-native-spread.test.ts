import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchObjectSpread } from '../../build/trpc-native-spread';

const dist = path.resolve(import.meta.dirname, '../../node_modules/@trpc/server/dist');
const files = (fs.readdirSync(dist, { recursive: true }) as string[])
  .filter((f) => /\.(mjs|cjs|js)$/.test(f))
  .map((f) => path.join(dist, f));

/** The installed tRPC, as the server build sees it: an upgrade that changes the helper must fail here, not silently. */
describe('build/trpc-native-spread.ts on the installed @trpc/server', () => {
  const withHelper = files.filter((f) => fs.readFileSync(f, 'utf8').includes('function _objectSpread2(e)'));

  it('finds the object-spread helper in tRPC’s ESM build, which the server bundle imports', () => {
    expect(withHelper.some((f) => f.endsWith('.mjs'))).toBe(true);
  });

  it.each(withHelper.map((f) => [path.relative(dist, f), f]))('replaces the helper of %s with Object.assign', (_name, file) => {
    const code = fs.readFileSync(file, 'utf8');
    const result = patchObjectSpread(code);
    expect(result).not.toBe('changed');
    const patched = typeof result === 'object' ? result.code : '';
    expect(patched).toContain('Object.assign(e, arguments[r])');
    expect(patched).not.toContain('ownKeys(Object(t), !0).forEach');
    expect(patched.length).toBeLessThan(code.length);
  });

  it('reports a helper of another shape instead of patching it', () => {
    expect(patchObjectSpread('function _objectSpread2(e) { return Object.assign({}, e); }')).toBe('changed');
    expect(patchObjectSpread('const a = { ...b };')).toBeUndefined();
  });
});
