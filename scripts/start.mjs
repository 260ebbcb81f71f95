// `npm start`: build what is missing or stale, then run the bundled server with plain node (migrations run at start).
// package.json starts it with the heap sizes of scripts/server-node-flags.mjs (V8 reads them when node starts, not from
// here), as the Dockerfile's CMD and the benches' built server do; that file says why.
import { ensureClientBuild, ensureServerBuild } from './build-if-stale.mjs';

await ensureClientBuild();
await ensureServerBuild();
await import('../dist/server/main.js');
