/** The server's one source of "now", so tests can move time (session expiry, token expiry, rate windows). */
export const clock = {
  now: (): Date => new Date(),
};

export const nowIso = (): string => clock.now().toISOString();
export const isoIn = (ms: number): string => new Date(clock.now().getTime() + ms).toISOString();
