import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SETPRIV = '/usr/bin/setpriv';

/**
 * The Chromium the tests start, at the priority of everything else. Run as root (CI, these machines), Chromium raises
 * its browser and GPU threads to nice -8, as for a desktop's display: beside the other lanes of `npm test` those
 * threads took the CPU first, from the test servers the pages wait on and from the PostgreSQL run, whose tests of
 * 10–17 s then went past their bound. As root, `executable` is started through setpriv without CAP_SYS_NICE, so that
 * it runs as it does for any other user; otherwise, or without setpriv, it is answered as it is.
 */
export function unboostedChromium(executable: string): string {
  if (process.getuid?.() !== 0 || !fs.existsSync(SETPRIV)) return executable;
  const key = createHash('sha256').update(executable).digest('hex').slice(0, 12);
  const wrapper = path.join(os.tmpdir(), `facturier-chromium-${key}.sh`);
  if (fs.existsSync(wrapper)) return wrapper;
  // Written beside and renamed: several test workers may make it at once, none may start a half-written one.
  const draft = `${wrapper}.${process.pid}.tmp`;
  fs.writeFileSync(draft, `#!/bin/sh\nexec ${SETPRIV} --inh-caps=-sys_nice --bounding-set=-sys_nice '${executable}' "$@"\n`, {
    mode: 0o755,
  });
  fs.renameSync(draft, wrapper);
  return wrapper;
}
