import { compactAccountCode } from './iban';
import type { KeyValue } from './schemas/document';
import type { PaymentAccount } from './schemas/document-parties';

/** A seller as the profile answers it or a document froze it: what says which account it is paid on. */
interface SellerAccounts {
  name: string;
  identifications?: readonly KeyValue[];
  additional_info?: readonly KeyValue[];
  payment_account?: PaymentAccount | null;
}

/**
 * The account a seller is paid on, or null when it gave none: its bank account when it has one (the profile's default
 * account, or the one frozen at issue); otherwise what it typed among its free key/values (« IBAN », « BIC », and
 * « Titulaire » when the account is not in its name), as snapshots taken before bank accounts existed keep it.
 * Not checked here: whoever uses it checks it (shared/iban.ts).
 */
export function paymentAccountOf(seller: SellerAccounts): PaymentAccount | null {
  if (seller.payment_account) return seller.payment_account;
  const pairs = [...(seller.identifications ?? []), ...(seller.additional_info ?? [])];
  const iban = valueAt(pairs, /^iban\b/i);
  if (!iban) return null;
  return {
    holder: holderOf(seller),
    iban: compactAccountCode(iban),
    bic: compactAccountCode(valueAt(pairs, /^(bic|swift)\b/i) ?? ''),
  };
}

/** Whom transfers are made out to: « Titulaire » among the seller's key/values when the account is not in its name. */
export function holderOf(seller: Pick<SellerAccounts, 'name' | 'identifications' | 'additional_info'>): string {
  return valueAt([...(seller.identifications ?? []), ...(seller.additional_info ?? [])], /^titulaire\b/i) ?? seller.name;
}

const valueAt = (pairs: readonly KeyValue[], key: RegExp): string | undefined =>
  pairs.find((p) => key.test(p.key.trim()) && p.value.trim())?.value.trim();
