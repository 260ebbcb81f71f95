import type { Db } from '../db/connection';
import { compactAccountCode } from '../../shared/iban';
import type { KeyValue } from '../../shared/schemas/document';
import { getOrganizationProfile } from './organization';
import { findDefaultBankAccount } from '../db/queries/bank';

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
 * from. Its default bank account (Paramètres → Comptes bancaires) when it has one; otherwise what it typed among its
 * free key/values (« IBAN », « BIC », and « Titulaire » when the account is not in the organisation's name), as
 * organisations did before bank accounts existed.
 */
export async function paymentAccount(db: Db, organizationId: number): Promise<PaymentAccount | null> {
  const [profile, account] = await Promise.all([getOrganizationProfile(db, organizationId), findDefaultBankAccount(db, organizationId)]);
  const pairs = [...profile.identifications, ...profile.additional_info];
  if (account) return { holder: valueAt(pairs, /^titulaire\b/i) ?? profile.name, iban: account.iban, bic: account.bic };
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
