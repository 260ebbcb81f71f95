// `npm start`: build what is missing or stale, then run the bundled server with plain node (migrations run at start).
// package.json starts it with --max-semi-space-size=2 (V8 reads its heap's sizes when node starts, not from here): the
// young generation stays at 2 MiB a half instead of growing to 16 MiB during start-up and keeping it, which measured
// about 19 MiB less resident memory idle and 20-25 MiB less at peak under load, for the same CPU per answer
// (`npm run bench -- scale`). The Dockerfile's CMD and the benches' built server pass the same flag.
import { ensureClientBuild, ensureServerBuild } from './build-if-stale.mjs';

await ensureClientBuild();
await ensureServerBuild();
await import('../dist/server/main.js');
