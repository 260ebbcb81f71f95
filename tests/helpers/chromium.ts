import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SETPRIV = '/usr/bin/setpriv';
const CAP_SETPCAP = 8n;
const CAP_SYS_NICE = 23n;

/** Whether this process holds `capability` (its effective set, /proc/self/status). */
function holds(capability: bigint): boolean {
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    return effective !== undefined && ((BigInt(`0x${effective}`) >> capability) & 1n) === 1n;
  } catch {
    return false;
  }
}

/**
 * Whether a Chromium started here could raise its own priority, and setpriv can take that right away: root (CI, these
 * machines) holding CAP_SYS_NICE, and CAP_SETPCAP to drop it from what Chromium inherits.
 */
export const chromiumWouldRaiseItsPriority = (): boolean =>
  process.getuid?.() === 0 && fs.existsSync(SETPRIV) && holds(CAP_SYS_NICE) && holds(CAP_SETPCAP);

/**
 * Where the wrappers are kept: inside the checkout (node_modules/.cache, ignored by git), not in the shared /tmp where
 * another user could have put a file of the same name first; each named after its own text, so a changed wrapper is a
 * new file and never an old one reused.
 */
const WRAPPERS = path.resolve(import.meta.dirname, '../../node_modules/.cache/facturier-chromium');

/**
 * The Chromium the tests start, at the priority of everything else. Run as root, Chromium raises its browser and GPU
 * threads to nice -8, as for a desktop's display: beside the other lanes of `npm test` those threads took the CPU
 * first, from the test servers the pages wait on and from the PostgreSQL run, whose tests of 10–17 s then went past
 * their bound. Where it could, `executable` is started through setpriv without CAP_SYS_NICE, so that it runs as it does
 * for any other user; otherwise it is answered as it is.
 */
export function unboostedChromium(executable: string): string {
  if (!chromiumWouldRaiseItsPriority()) return executable;
  const quoted = `'${executable.replaceAll("'", `'\\''`)}'`;
  const text = `#!/bin/sh\nexec ${SETPRIV} --inh-caps=-sys_nice --bounding-set=-sys_nice ${quoted} "$@"\n`;
  const wrapper = path.join(WRAPPERS, `chromium-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.sh`);
  if (fs.existsSync(wrapper) && fs.readFileSync(wrapper, 'utf8') === text) return wrapper;
  // Written beside and renamed: several test workers may make it at once, none may start a half-written one.
  fs.mkdirSync(WRAPPERS, { recursive: true });
  const draft = `${wrapper}.${process.pid}.tmp`;
  fs.writeFileSync(draft, text, { mode: 0o700 });
  fs.renameSync(draft, wrapper);
  return wrapper;
}
