// Runs before each test file of the projects whose files share a worker's modules (`isolate: false` in
// vite.config.ts): whatever a file changed in module state and forgot to put back is put back before the next one.
import { afterAll, vi } from 'vitest';
import { clock } from '../../src/server/clock';

const realNow = clock.now;

afterAll(() => {
  clock.now = realNow;
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
