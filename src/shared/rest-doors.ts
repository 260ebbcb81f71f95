/**
 * The REST doors the client calls with a plain fetch, before the tRPC client and TanStack Query are
 * downloaded: the login form and the update notice, so that the login page draws and posts without the data
 * layer. The procedures' own `meta.rest` spreads these objects: each path is written once, in the one API definition.
 */
export const LOGIN_DOOR = { method: 'POST', path: '/api/auth/login' } as const;
export const VERSION_DOOR = { method: 'GET', path: '/api/version' } as const;
