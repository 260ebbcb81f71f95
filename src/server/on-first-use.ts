import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A heavy package loaded the first time a feature needs it, not at start: Stripe, nodemailer, the QR code writer,
 * argon2 and pg cost about 20 MB of memory together, and an idle process (or one that never sends a mail or takes a
 * card) should not hold them. These packages are CommonJS, so `require` loads them synchronously and their callers
 * keep their synchronous signatures; the first call pays the load (tens of milliseconds), the next ones read the
 * module kept by Node's cache. The caller names the type with an `import type`, which loads nothing.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(name) as T;
    return loaded;
  };
}
