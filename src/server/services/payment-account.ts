import type { Db } from '../db/connection';
import { paymentAccountOf } from '../../shared/payment-account';
import type { PaymentAccount } from '../../shared/schemas/document-parties';
import { getOrganizationProfile } from './organization';

/** The account an organisation is paid on today (shared/payment-account.ts says which), or null when it gave none. */
export async function paymentAccount(db: Db, organizationId: number): Promise<PaymentAccount | null> {
  return paymentAccountOf(await getOrganizationProfile(db, organizationId));
}
