import type { Db } from '../db/connection';
import { offersVat, type TaxRules } from '../../shared/vat';
import { getAppSettings } from './settings';
import { getOrganizationProfile } from './organization';

/**
 * The organisation's VAT rules today (shared/vat.ts): its regime (Paramètres → Infos de l’entreprise; the franchise
 * en base charges no VAT) and whether a line or item may carry several taxes (Paramètres → TVA, off by default).
 */
export async function taxRulesOf(db: Db, organizationId: number): Promise<TaxRules> {
  const [profile, settings] = await Promise.all([getOrganizationProfile(db, organizationId), getAppSettings(db, organizationId)]);
  return { vat: offersVat(profile), multiple: settings.multiple_taxes_per_line };
}
