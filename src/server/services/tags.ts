import type { Db } from '../db/connection';
import { TAG_KINDS, type Tag, type TagKind } from '../../shared/schemas/tag';
import { fail } from '../errors';
import {
  deleteTag,
  findTagByName,
  findTags,
  insertTag,
  listTags,
  removeTaggingsOfKinds,
  updateTag,
  type TagRecord,
} from '../db/queries/tags';
import { defined } from '../../shared/defined';

const NOT_FOUND = 'Étiquette introuvable';
const KIND_LABELS: Record<TagKind, string> = { customer: 'aux clients', item: 'aux articles', document: 'aux documents' };

async function getTag(db: Db, organizationId: number, id: number): Promise<TagRecord> {
  const [tag] = await listTags(db, { organizationId, id });
  if (!tag) fail('NOT_FOUND', NOT_FOUND); // another organisation's id answers the same: never reveal it exists
  return tag;
}

async function checkName(db: Db, organizationId: number, name: string, exceptId?: number): Promise<void> {
  const other = await findTagByName(db, { organizationId, name, exceptId });
  if (other) fail('CONFLICT', `L’étiquette « ${other.name} » existe déjà`);
}

export async function createTag(db: Db, organizationId: number, tag: Tag): Promise<TagRecord> {
  await checkName(db, organizationId, tag.name);
  const id = await insertTag(db, { organizationId, tag });
  return getTag(db, organizationId, id);
}

/** A kind left out of the scope loses the tag: it would otherwise stay on records that can no longer show it. */
export async function editTag(db: Db, organizationId: number, id: number, tag: Tag): Promise<TagRecord> {
  await getTag(db, organizationId, id);
  await checkName(db, organizationId, tag.name, id);
  await db.transaction().execute(async (trx) => {
    await updateTag(trx, { organizationId, id, tag });
    await removeTaggingsOfKinds(trx, { organizationId, tagId: id, kinds: TAG_KINDS.filter((k) => !tag.scopes.includes(k)) });
  });
  return getTag(db, organizationId, id);
}

/** A tag is only a label: deleting it takes it off every record, which are otherwise untouched. */
export async function removeTag(db: Db, organizationId: number, id: number): Promise<void> {
  await getTag(db, organizationId, id);
  await db.transaction().execute((trx) => deleteTag(trx, { organizationId, id }));
}

/** A record's `tag_ids` must be the organisation's tags, each meant for that kind of record. */
export async function checkTagIds(db: Db, organizationId: number, kind: TagKind, ids: number[]): Promise<void> {
  const found = new Map((await findTags(db, { organizationId, ids })).map((t) => [t.id, t]));
  const problems: string[] = [];
  for (const id of new Set(ids)) {
    const tag = found.get(id);
    if (!tag) problems.push(`Étiquettes : l’étiquette n° ${id} est inconnue. Choisissez parmi celles de Paramètres → Étiquettes.`);
    else if (!tag.scopes.includes(kind))
      problems.push(`Étiquettes : « ${tag.name} » ne s’applique pas ${KIND_LABELS[kind]}. Changez sa portée dans Paramètres → Étiquettes.`);
  }
  if (problems.length) fail('BAD_REQUEST', problems.length === 1 ? defined(problems[0], 'problems[0]') : problems);
}
