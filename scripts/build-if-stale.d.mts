/** Builds dist/client when missing or older than its sources; resolves true when it built. */
export function ensureClientBuild(): Promise<boolean>;
/** Builds dist/server/main.js when missing or older than its sources; resolves true when it built. */
export function ensureServerBuild(): Promise<boolean>;
