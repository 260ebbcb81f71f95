import dns from 'node:dns/promises';
import net from 'node:net';
import { isInternalAddress } from './internal-address';

/**
 * Every connection to an address a user typed (an organisation's SMTP server today, webhooks tomorrow)
 * goes through here first. The review mapped open, closed and filtered ports of 127.0.0.1 and 169.254.169.254 from
 * the three different answers of "Envoyer un e-mail de test": a target that is internal or on another port is now
 * refused before any packet leaves, always with the same sentence, so nothing can be learned from the answer.
 */
export const OUTBOUND_REFUSED =
  'Ce serveur n’est pas joignable depuis Facturier : vérifiez son nom et son port (25, 465, 587 ou 2525) ; les adresses internes ne sont pas acceptées';

export class OutboundRefusedError extends Error {
  constructor() {
    super(OUTBOUND_REFUSED);
  }
}

/** The mail ports a provider uses: submission (587, 2525), implicit TLS (465), relay (25). */
export const SMTP_PORTS = [25, 465, 587, 2525] as const;

export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE: tests and self-hosted setups whose relay is on the local network lift both checks. */
  allowPrivate: boolean;
  ports: readonly number[];
}

/**
 * Resolves `host` and answers the one address to connect to — the caller connects to that IP, not to the name again,
 * so a DNS answer that changes between this check and the connection (rebinding) cannot slip an internal address in.
 */
export async function resolveOutbound(host: string, port: number, policy: OutboundPolicy): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = net.isIP(bare) ? [bare] : (await dns.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new OutboundRefusedError(); // an unknown name answers like an internal one: nothing to learn
  }
  if (policy.allowPrivate) return addresses[0] ?? bare;
  if (!policy.ports.includes(port) || addresses.length === 0 || addresses.some(isInternalAddress)) throw new OutboundRefusedError();
  return addresses[0] ?? bare;
}
