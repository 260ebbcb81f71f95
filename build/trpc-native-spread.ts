import type { Plugin } from 'vite';

/**
 * @trpc/server ships its object spreads down-levelled to oxc's `_objectSpread2` helper, which copies each key with
 * `defineProperty` after a `toPropertyKey`/`typeof` round. tRPC spreads its call options and context at every
 * middleware step, and this helper alone was 14 % of the CPU of an authenticated request (`npm run bench`).
 * tRPC always spreads into a fresh object literal, where `Object.assign` has the same result at native speed.
 * Applied to the server bundle only; if a tRPC upgrade changes the helper, the build says so and changes nothing.
 */
const HELPER = /function _objectSpread2\(e\) \{\n\tfor \(var r = 1; r < arguments\.length; r\+\+\) \{[\s\S]*?\n\treturn e;\n\}/;
const NATIVE =
  'function _objectSpread2(e) {\n\tfor (var r = 1; r < arguments.length; r++) if (arguments[r] != null) Object.assign(e, arguments[r]);\n\treturn e;\n}';

/**
 * The patch itself, apart from Vite: `undefined` when the code has no helper, `changed` when the helper is there but
 * not in the shape this patch knows (a tRPC upgrade; tests/unit/trpc-native-spread.test.ts runs it on the installed
 * files).
 */
export function patchObjectSpread(code: string): { code: string } | 'changed' | undefined {
  if (!code.includes('function _objectSpread2(e)')) return undefined;
  if (!HELPER.test(code)) return 'changed';
  return { code: code.replace(HELPER, NATIVE) };
}

export function trpcNativeSpread(): Plugin {
  let patched = 0;
  return {
    name: 'facturier:trpc-native-spread',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/@trpc/server/dist/')) return null;
      const result = patchObjectSpread(code);
      if (result === undefined) return null;
      if (result === 'changed') {
        this.warn(`${id}: tRPC's _objectSpread2 helper changed shape; the native-spread patch was not applied`);
        return null;
      }
      patched += 1;
      return { code: result.code, map: null };
    },
    buildEnd() {
      if (this.environment?.config.build.ssr && patched === 0) this.warn('tRPC native-spread patch: no helper found to patch');
    },
  };
}
