import { offersVat, type TaxRules } from '../../shared/vat';
import { trpc } from '../trpc';

/**
 * The organisation's VAT rules as the screens apply them (shared/vat.ts, the server checks the same): its regime
 * (franchise en base: no VAT offered) and whether a line may carry several taxes.
 */
export function useTaxRules(enabled = true): TaxRules & { ready: boolean } {
  const profile = trpc.organization.get.useQuery(undefined, { staleTime: 60_000, enabled });
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000, enabled });
  const app = settings.data && 'currency_format' in settings.data ? settings.data : undefined;
  return {
    vat: offersVat(profile.data),
    multiple: app?.multiple_taxes_per_line ?? false,
    ready: profile.isSuccess && app !== undefined,
  };
}
