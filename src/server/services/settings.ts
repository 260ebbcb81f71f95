import type { Db } from '../db/connection';
import { findSettingValue, upsertSettingValue } from '../db/queries/settings';
import { appSettingsSchema, defaultAppSettings, type AppSettings } from '../../shared/schemas/settings';
import { logger } from '../logger';
import { clock } from '../clock';
import { latePenaltyRateError } from '../../shared/legal-interest-rate';
import { todayIso } from './document-record';
import { fail } from '../errors';
import { missingMandatoryParts } from '../../shared/template-mandatory';
import { numberingCollisions } from '../../shared/numbering-collisions';
import { DOCUMENT_TYPES } from '../../shared/schemas/document';
import { appendAudit } from './audit';
import { defaultDocumentTemplate, documentTemplateSchema, type DocumentTemplate } from '../../shared/schemas/template';
import { accountingSettingsSchema, defaultAccountingSettings, type AccountingSettings } from '../../shared/schemas/accounting';
import { foreignTemplateImages } from '../../shared/template-images';

const APP_KEY = 'app';
const DOCUMENT_KEY = 'document';
const ACCOUNTING_KEY = 'accounting';

export async function initializeSettings(db: Db, organizationId: number): Promise<void> {
  await upsertSettingValue(db, { organizationId, key: APP_KEY, value: JSON.stringify(defaultAppSettings()) });
}

/**
 * Stored settings are re-validated on read: a field added by a later version gets its default, and a row that
 * no longer validates falls back to the defaults rather than breaking every screen.
 */
export async function getAppSettings(db: Db, organizationId: number): Promise<AppSettings> {
  const raw = await findSettingValue(db, { organizationId, key: APP_KEY });
  if (raw === undefined) return defaultAppSettings();
  const parsed = appSettingsSchema.safeParse(JSON.parse(raw));
  if (parsed.success) return parsed.data;
  logger.error(`stored settings of organization ${organizationId} no longer validate; defaults served`, parsed.error);
  return defaultAppSettings();
}

/** C. com. L441-10 II: the late-penalty rate is refused under three times the legal interest rate in force today. */
export async function saveAppSettings(db: Db, organizationId: number, settings: AppSettings): Promise<AppSettings> {
  const tooLow = latePenaltyRateError(settings.late_penalty_rate, todayIso(clock.now()));
  if (tooLow) fail('BAD_REQUEST', tooLow);
  await upsertSettingValue(db, { organizationId, key: APP_KEY, value: JSON.stringify(settings) });
  return settings;
}

/** The document template, with the shared defaults until the organisation saves its own. */
export async function getDocumentTemplate(db: Db, organizationId: number): Promise<DocumentTemplate> {
  const raw = await findSettingValue(db, { organizationId, key: DOCUMENT_KEY });
  if (raw === undefined) return defaultDocumentTemplate();
  const parsed = documentTemplateSchema.safeParse(JSON.parse(raw));
  if (parsed.success) return parsed.data;
  logger.error(`stored document template of organization ${organizationId} no longer validates; defaults served`, parsed.error);
  return defaultDocumentTemplate();
}

const patternOf = (n: DocumentTemplate['numbering'][keyof DocumentTemplate['numbering']]) =>
  `${n.prefix}[${n.digit_count} chiffres]${n.suffix}`;

/**
 * Saves the template. One that would drop a mandatory mention from invoices and credit notes is refused, naming each
 * part, and so is a numbering under which two types' series could produce the same number (CGI art. 242 nonies A). A
 * change of a series' numbering pattern is logged in the same transaction: this is the one path that
 * writes the template, so every change is logged.
 */
export async function saveDocumentTemplate(
  db: Db,
  organizationId: number,
  template: DocumentTemplate,
  userId?: number,
): Promise<DocumentTemplate> {
  const refusals = [...missingMandatoryParts(template), ...numberingCollisions(template.numbering)].map((m) => m.message);
  refusals.push(...foreignTemplateImages(template));
  if (refusals.length > 0) fail('BAD_REQUEST', refusals);
  await db.transaction().execute(async (trx) => {
    // Read in the writing transaction: two saves in a row each log their own change, never a stale one.
    const before = await getDocumentTemplate(trx, organizationId);
    await upsertSettingValue(trx, { organizationId, key: DOCUMENT_KEY, value: JSON.stringify(template) });
    for (const type of DOCUMENT_TYPES) {
      const [from, to] = [patternOf(before.numbering[type]), patternOf(template.numbering[type])];
      if (from !== to) await appendAudit(trx, organizationId, 'numbering_change', { numbering: { type, from, to } }, userId);
    }
  });
  return template;
}

/** The accounts the FEC books to (Paramètres → Comptabilité), the Plan comptable général's until the organisation saves its own. */
export async function getAccountingSettings(db: Db, organizationId: number): Promise<AccountingSettings> {
  const raw = await findSettingValue(db, { organizationId, key: ACCOUNTING_KEY });
  if (raw === undefined) return defaultAccountingSettings();
  const parsed = accountingSettingsSchema.safeParse(JSON.parse(raw));
  if (parsed.success) return parsed.data;
  logger.error(`stored accounting settings of organization ${organizationId} no longer validate; defaults served`, parsed.error);
  return defaultAccountingSettings();
}

export async function saveAccountingSettings(db: Db, organizationId: number, settings: AccountingSettings): Promise<AccountingSettings> {
  await upsertSettingValue(db, { organizationId, key: ACCOUNTING_KEY, value: JSON.stringify(settings) });
  return settings;
}
