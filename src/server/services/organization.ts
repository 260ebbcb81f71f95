import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection';
import {
  organizationSettingsSchema,
  LOGO_MAX_BYTES,
  type OrganizationProfile,
  type OrganizationSettings,
} from '../../shared/schemas/organization';
import { holderOf } from '../../shared/payment-account';
import { findDefaultBankAccount } from '../db/queries/bank';
import { findSettingValue, upsertSettingValue } from '../db/queries/settings';
import { findOrganizationName, renameOrganization } from '../db/queries/organizations';
import { fail } from '../errors';
import { logger } from '../logger';
import { imageDimensions, type ImageKind } from './image-dimensions';

const PROFILE_KEY = 'organization';
const LOGO_KEY = 'logo';
export const LOGO_URL_PREFIX = '/uploads/logos/';
export const LOGO_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/;

export const logoDir = (dataDir: string) => path.join(dataDir, 'uploads', 'logos');

/** The profile, its logo, and the account it is paid on: its default bank account, frozen with the rest at issue. */
export async function getOrganizationProfile(db: Db, organizationId: number): Promise<OrganizationProfile> {
  const [raw, name, logo, account] = await Promise.all([
    findSettingValue(db, { organizationId, key: PROFILE_KEY }),
    findOrganizationName(db, { organizationId }),
    findSettingValue(db, { organizationId, key: LOGO_KEY }),
    findDefaultBankAccount(db, organizationId),
  ]);
  const stored = raw ? organizationSettingsSchema.safeParse(JSON.parse(raw)) : null;
  if (stored && !stored.success)
    logger.error(`stored profile of organization ${organizationId} no longer validates; defaults served`, stored.error);
  const profile = stored?.success ? stored.data : organizationSettingsSchema.parse({ name: name ?? '' });
  const named = { ...profile, name: name ?? profile.name };
  return {
    ...named,
    logo_url: logo ? `${LOGO_URL_PREFIX}${logo}` : null,
    payment_account: account ? { holder: holderOf(named), iban: account.iban, bic: account.bic } : null,
  };
}

/** The profile and the organisation's name change together, so the drawer and the invoices never disagree. */
export async function saveOrganizationProfile(db: Db, organizationId: number, profile: OrganizationSettings) {
  await db.transaction().execute(async (trx) => {
    await upsertSettingValue(trx, { organizationId, key: PROFILE_KEY, value: JSON.stringify(profile) });
    await renameOrganization(trx, { organizationId, name: profile.name });
  });
  return getOrganizationProfile(db, organizationId);
}

/** A logo is printed on every PDF: 4,000 × 4,000 pixels (16 million) is far more than any page shows. */
const LOGO_MAX_MEGAPIXELS = 16;
export const LOGO_MAX_PIXELS = LOGO_MAX_MEGAPIXELS * 1_000_000;

/** What the file really is, from its first bytes (the declared type is not trusted). */
function imageType(bytes: Buffer): ImageKind | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

export async function saveLogo(db: Db, dataDir: string, organizationId: number, dataUrl: string): Promise<string> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > LOGO_MAX_BYTES) fail('PAYLOAD_TOO_LARGE', 'Le logo dépasse 1 Mo');
  const type = imageType(bytes);
  if (!type) fail('BAD_REQUEST', 'Le fichier n’est pas une image PNG, JPEG ou WebP');
  const size = imageDimensions(bytes, type);
  if (!size) fail('BAD_REQUEST', 'Le logo est une image abîmée : ses dimensions sont illisibles');
  if (size.width * size.height > LOGO_MAX_PIXELS)
    fail('BAD_REQUEST', `Le logo fait ${size.width} × ${size.height} pixels : ${LOGO_MAX_MEGAPIXELS} millions de pixels au plus`);
  const file = `${randomUUID()}.${type}`;
  await fs.mkdir(logoDir(dataDir), { recursive: true });
  await fs.writeFile(path.join(logoDir(dataDir), file), bytes);
  const previous = await findSettingValue(db, { organizationId, key: LOGO_KEY });
  await upsertSettingValue(db, { organizationId, key: LOGO_KEY, value: file });
  if (previous && LOGO_FILE.test(previous)) await fs.rm(path.join(logoDir(dataDir), previous), { force: true });
  return `${LOGO_URL_PREFIX}${file}`;
}

export async function removeLogo(db: Db, dataDir: string, organizationId: number): Promise<void> {
  const previous = await findSettingValue(db, { organizationId, key: LOGO_KEY });
  if (!previous) return;
  await db.deleteFrom('settings').where('organization_id', '=', organizationId).where('key', '=', LOGO_KEY).execute();
  if (LOGO_FILE.test(previous)) await fs.rm(path.join(logoDir(dataDir), previous), { force: true });
}

/** The company's e-mail (Infos de l'entreprise), '' when none: the default Reply-To of the mail sent to customers. */
export async function organizationEmail(db: Db, organizationId: number): Promise<string> {
  const raw = await findSettingValue(db, { organizationId, key: PROFILE_KEY });
  if (!raw) return '';
  const email = (JSON.parse(raw) as { email?: unknown }).email;
  return typeof email === 'string' ? email.trim() : '';
}
