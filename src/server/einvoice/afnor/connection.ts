/** How one organisation reaches its platform, secrets decrypted (server memory only, never stored or answered). */
export type AfnorAuth = { kind: 'oauth'; tokenUrl: string; clientId: string; clientSecret: string } | { kind: 'bearer'; token: string };

export interface AfnorConnection {
  organizationId: number;
  /** Base URLs, without a trailing slash: the API's paths (/v1/…) are appended. */
  flowUrl: string;
  directoryUrl: string;
  auth: AfnorAuth;
  /** OUTBOUND_ALLOW_PRIVATE: lets tests (and a platform on the local network) be reached on internal addresses. */
  allowPrivate: boolean;
}
