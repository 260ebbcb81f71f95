import type { PaymentAccount } from '../../shared/schemas/document-parties';
import { sellerIdentity } from '../../shared/legal-mentions';
import { addressSchema, type Address } from '../../shared/schemas/customer';
import { organizationSettingsSchema, type OrganizationSettings } from '../../shared/schemas/organization';
import type { KeyValue } from '../../shared/schemas/document';
import type { RenderCustomer, RenderSeller } from './types';

/** The organisation profile as trpc.organization.get answers it, or as a document's seller snapshot keeps it. */
export type SellerSource = Partial<OrganizationSettings> & {
  name: string;
  logo_url?: string | null;
  identity?: string[];
  /** The account it is paid on: the profile's default bank account, or the one the snapshot froze. */
  payment_account?: PaymentAccount | null;
};

/** A customer as trpc.customers.get answers it, or as a document's customer snapshot keeps it. */
export interface CustomerSource {
  name: string;
  legal_name?: string | null;
  number?: string | null;
  type?: 'company' | 'individual' | null;
  business_id?: string | null;
  vat_number?: string | null;
  email?: string | null;
  address?: Partial<Address> | null;
  shipping?: Partial<Address> | null;
}

const addressOf = (a: Partial<Address> | null | undefined): Address => addressSchema.parse(a ?? {});
const pairs = (list: KeyValue[] | undefined) => (list ?? []).filter((kv) => kv.key.trim() || kv.value.trim());

export function sellerOf(source: SellerSource | null | undefined): RenderSeller | null {
  if (!source) return null;
  // Older snapshots may miss fields added since: the schema fills them with their defaults.
  const parsed = organizationSettingsSchema.safeParse(source);
  const org: OrganizationSettings = parsed.success
    ? parsed.data
    : { ...organizationSettingsSchema.parse({ name: source.name || '—' }), ...source, address: addressOf(source.address) };
  return {
    name: org.name,
    legal_form: org.legal_form,
    address: org.address,
    email: org.email,
    phone: org.phone,
    mobile: org.mobile,
    web: org.web,
    identifications: pairs(org.identifications),
    additional_info: pairs(org.additional_info),
    identity: source.identity ?? sellerIdentity(org),
    logo_url: source.logo_url ?? null,
  };
}

export function customerOf(source: CustomerSource | null | undefined): RenderCustomer | null {
  if (!source) return null;
  return {
    name: source.name,
    legal_name: source.legal_name ?? '',
    number: source.number ?? '',
    type: source.type ?? 'company',
    business_id: source.business_id ?? '',
    vat_number: source.vat_number ?? '',
    email: source.email ?? '',
    address: addressOf(source.address),
    shipping: addressOf(source.shipping),
  };
}

/** The organisation settings legalMentionTexts() reads, from a profile. */
export const organizationOf = (source: SellerSource): OrganizationSettings => {
  const parsed = organizationSettingsSchema.safeParse(source);
  return parsed.success
    ? parsed.data
    : { ...organizationSettingsSchema.parse({ name: source.name || '—' }), ...source, address: addressOf(source.address) };
};
