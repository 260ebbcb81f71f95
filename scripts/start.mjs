// `npm start`: build what is missing or stale, then run the bundled server with plain node (migrations run at start).
import { ensureClientBuild, ensureServerBuild } from './build-if-stale.mjs';

await ensureClientBuild();
await ensureServerBuild();
await import('../dist/server/main.js');
