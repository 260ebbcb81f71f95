import { ensureClientBuild } from '../../scripts/build-if-stale.mjs';

/** The browser tests run against the built SPA, as users get it: build it first when missing or stale. */
export default async function setup() {
  await ensureClientBuild();
}
