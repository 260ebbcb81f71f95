import type { MigrationDb } from './helpers';

/**
 * Before bank accounts existed, an organisation gave its IBAN (and BIC) as free key/values of its profile, printed as
 * typed. Those become its default bank account, which the payment block, the e-invoice's payment means and the
 * transfer QR code now read; the pairs leave the profile so that the account is not printed twice. Documents already
 * issued keep their frozen snapshot, pairs included: they print as they were issued.
 *
 * Left as they are: an IBAN that fails its check (it cannot make an account; the user still sees it, printed as
 * before), and pairs beside accounts the user already created for other IBANs (their choice of what to print).
 * The checks are copied here, as they were when this ran, so that a later change to them never changes this step.
 */
export async function up(db: MigrationDb): Promise<void> {
  const profiles = await db.selectFrom('settings').select(['organization_id', 'value']).where('key', '=', 'organization').execute();
  for (const row of profiles) {
    const organizationId = Number(row.organization_id);
    const profile = parsed(row.value);
    if (!profile) continue;
    const lists = ['identifications', 'additional_info'] as const;
    const pairs = lists.flatMap((list) => pairsOf(profile[list]));
    const iban = compact(valueAt(pairs, /^iban\b/i) ?? '');
    if (!validIban(iban)) continue;
    const bicText = compact(valueAt(pairs, /^(bic|swift)\b/i) ?? '');
    const accounts = await db.selectFrom('bank_accounts').select(['iban']).where('organization_id', '=', organizationId).execute();
    if (accounts.length > 0 && !accounts.some((a) => a.iban === iban)) continue;
    const now = new Date().toISOString();
    if (accounts.length === 0)
      await db
        .insertInto('bank_accounts')
        .values({
          organization_id: organizationId,
          name: 'Compte principal',
          iban,
          bic: BIC_SHAPE.test(bicText) ? bicText : '',
          is_default: 1,
          csv_mapping: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    const moved = (kv: Pair) => /^(iban|bic|swift)\b/i.test(kv.key.trim());
    for (const list of lists) if (Array.isArray(profile[list])) profile[list] = pairsOf(profile[list]).filter((kv) => !moved(kv));
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(profile), updated_at: now })
      .where('organization_id', '=', organizationId)
      .where('key', '=', 'organization')
      .execute();
  }
}

export async function down(): Promise<void> {
  // The accounts stay: they may have been edited, matched and printed since; nothing here can tell them apart.
}

type Pair = { key: string; value: string };

function parsed(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'string') return null;
  try {
    const json: unknown = JSON.parse(value);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const pairsOf = (list: unknown): Pair[] =>
  Array.isArray(list)
    ? list.filter((kv): kv is Pair => typeof kv === 'object' && kv !== null && typeof kv.key === 'string' && typeof kv.value === 'string')
    : [];

const valueAt = (pairs: Pair[], key: RegExp) => pairs.find((p) => key.test(p.key.trim()) && p.value.trim())?.value.trim();

const compact = (text: string) => text.replace(/\s+/g, '').toUpperCase();

const BIC_SHAPE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** ISO 13616: shape, then ISO 7064 mod 97-10 over the rearranged text leaves 1. */
function validIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let remainder = 0;
  for (const char of `${iban.slice(4)}${iban.slice(0, 4)}`) {
    const code = char.charCodeAt(0);
    remainder = code <= 57 ? (remainder * 10 + code - 48) % 97 : (remainder * 100 + code - 55) % 97;
  }
  return remainder === 1;
}
