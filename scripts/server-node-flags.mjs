// The flags and environment node runs the server with, one list for every place that starts it: `npm start`
// (package.json), the Dockerfile and the benches' built server. package.json and the Dockerfile cannot import this
// file: they repeat it, and tests/unit/server-node-flags.test.ts fails when they differ. V8 reads its heap's sizes when
// node starts, so they cannot be set from the server's own code.
//
// --max-semi-space-size=2: the young generation stays at 2 MiB a half instead of growing to 16 MiB during start-up and
// keeping it, which measured about 19 MiB less resident memory idle and 20-25 MiB less at peak under load, for the
// same CPU per answer (`npm run bench -- scale`).
//
// --max-old-space-size=1024: under its default limit (4 GB on this machine) V8 lets the old generation grow to 3-4 times
// what survived the last full collection before starting the next, and under load the server's old generation is mostly
// garbage waiting for it (about 22 MiB live, up to 72 MiB used). Under a 1 GB limit V8 grows it less (full collections at
// 40-60 MiB used): at 100 000 documents (`BENCH_ONLY='first page' npm run bench -- scale`) the peak was 167 MiB instead of
// 231-258 MiB, the CPU per answer the same within the runs' noise (26 full collections in 50 s, 0.3 s of pauses in all),
// and nothing changed idle. 1 GB is far above what the process holds: heavy work runs in worker threads, which have
// their own limit (HEAVY_WORKER_MEMORY_MB).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=1024'];

// MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's helpers, libuv's pool hashing passwords or reading
// files) an arena of its own, up to 8 per core, and keeps what they freed. Two arenas measured 2.5 MiB less resident
// memory idle (86 MiB instead of 88.5, the mean of four starts) and a peak of 158 MiB instead of 167 MiB at 100 000
// documents (one run each), for the same CPU per answer. Other C libraries ignore it.
export const SERVER_NODE_ENV = { MALLOC_ARENA_MAX: '2' };
