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

export function trpcNativeSpread(): Plugin {
  let patched = 0;
  return {
    name: 'facturier:trpc-native-spread',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/@trpc/server/dist/') || !code.includes('function _objectSpread2(e)')) return null;
      if (!HELPER.test(code)) {
        this.warn(`${id}: tRPC's _objectSpread2 helper changed shape; the native-spread patch was not applied`);
        return null;
      }
      patched += 1;
      return { code: code.replace(HELPER, NATIVE), map: null };
    },
    buildEnd() {
      if (this.environment?.config.build.ssr && patched === 0) this.warn('tRPC native-spread patch: no helper found to patch');
    },
  };
}
