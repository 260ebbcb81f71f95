import { countryCode } from './countries';

/** What the issue's check answers when nothing needs saying before « Émettre définitivement ? ». */
export const READY_TO_ISSUE = 'Prêt à être émis';

/**
 * The customer's SIREN as the directory knows businesses: a French business's 9 digits (the start of a SIRET), or
 * null for an individual or a business abroad, which the directory does not list.
 */
export function sirenOfCustomer(c: { type: string; business_id: string; address: { country: string } }): string | null {
  if (c.type === 'individual') return null;
  if (c.address.country && countryCode(c.address.country) !== 'FR') return null;
  const digits = c.business_id.replace(/\D/g, '');
  return digits.length === 9 || digits.length === 14 ? digits.slice(0, 9) : null;
}

/** Before an issue: a business the directory does not list cannot receive the e-invoice through a platform. */
export function customerDirectoryWarning(c: {
  type: string;
  name: string;
  business_id: string;
  address: { country: string };
  directory_status: string;
}): string | null {
  const siren = sirenOfCustomer(c);
  if (!siren || c.directory_status !== 'absent') return null;
  return `Attention : ${c.name} (SIREN ${siren}) est absent de l’annuaire de la facturation électronique. La plateforme ne saura pas lui remettre la facture : vérifiez son SIREN ou demandez-lui de s’inscrire auprès d’une plateforme agréée.`;
}

/** What a lookup found, in a sentence. */
export function directoryStatusMessage(c: { directory_status: string; electronic_address: string; routing_code: string }): string {
  if (c.directory_status === 'listed')
    return `Inscrit à l’annuaire : adresse ${c.electronic_address}${c.routing_code ? `, code de routage ${c.routing_code}` : ''}`;
  if (c.directory_status === 'absent') return 'Absent de l’annuaire de la facturation électronique';
  return 'Pas de SIREN à chercher dans l’annuaire (particulier ou entreprise hors de France)';
}

/**
 * BR-FR-23 / BR-FR-25: an electronic address under scheme 0225 is letters, digits and « + - _ . », at most 125
 * characters; BR-FR-21: a French business's starts with its SIREN.
 */
const ADDRESS_0225 = /^[A-Za-z0-9+\-_.]{1,125}$/;
/** BR-FR-24 / BR-FR-26: a private identifier under scheme 0224 (the routing code), at most 100 characters. */
const ROUTING_0224 = /^[A-Za-z0-9+\-_.]{1,100}$/;

/** Why a directory address cannot be written as the buyer's BT-49 of this SIREN, or null when it can. */
export function electronicAddressProblem(siren: string, address: string): string | null {
  if (!ADDRESS_0225.test(address))
    return `l’adresse électronique « ${address} » n’est pas utilisable : 125 caractères au plus, lettres, chiffres et « + - _ . » seulement`;
  if (!address.startsWith(siren)) return `l’adresse électronique « ${address} » ne commence pas par le SIREN ${siren}`;
  return null;
}

/** A routing code the e-invoice can carry (scheme 0224), or null: a code with « / » or spaces stays on the customer only. */
export const routingCodeForEinvoice = (code: string): string | null => (ROUTING_0224.test(code) ? code : null);
