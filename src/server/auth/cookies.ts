import { SESSION_COOKIE } from './sessions';

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Cookie `session`, HttpOnly, SameSite=Lax, Path=/; Secure when the app is served over https. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'HttpOnly', 'SameSite=Lax', 'Path=/', `Expires=${expiresAt.toUTCString()}`, secure ? 'Secure' : '']
    .filter(Boolean)
    .join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, 'HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=0', secure ? 'Secure' : ''].filter(Boolean).join('; ');
}
