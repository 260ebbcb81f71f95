import type { Db } from '../db/connection';
import { compactAccountCode } from '../../shared/iban';
import type { KeyValue } from '../../shared/schemas/document';
import { getOrganizationProfile } from './organization';

export interface PaymentAccount {
  /** Whom the transfer is made out to. */
  holder: string;
  /** Electronic form (no spaces, upper case), not checked here: whoever uses it checks it (shared/iban.ts). */
  iban: string;
  /** '' when none was given. */
  bic: string;
}

/**
 * The account an organisation is paid on, or null when it gave none: the one place the rest of the server reads it
 * from. Today it is what the organisation typed among its free key/values (« IBAN », « BIC », and « Titulaire »
 * when the account is not in the organisation's name), as the payment block prints them.
 */
export async function paymentAccount(db: Db, organizationId: number): Promise<PaymentAccount | null> {
  const profile = await getOrganizationProfile(db, organizationId);
  const pairs = [...profile.identifications, ...profile.additional_info];
  const iban = valueAt(pairs, /^iban\b/i);
  if (!iban) return null;
  return {
    holder: valueAt(pairs, /^titulaire\b/i) ?? profile.name,
    iban: compactAccountCode(iban),
    bic: compactAccountCode(valueAt(pairs, /^(bic|swift)\b/i) ?? ''),
  };
}

const valueAt = (pairs: readonly KeyValue[], key: RegExp): string | undefined =>
  pairs.find((p) => key.test(p.key.trim()) && p.value.trim())?.value.trim();
