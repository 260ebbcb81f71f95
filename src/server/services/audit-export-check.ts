import type { Db } from '../db/connection';
import { findClosing, listEntriesBetween } from '../db/queries/audit-closings';
import { countEntries } from '../db/queries/audit';
import { readExportedClosing } from './audit-closings';

/**
 * A closing exported earlier and kept away from the server, against the database as it is now: the file is signed by
 * this server's key; the organisation's chain still holds the entry it sealed, with the same hash (entries cut since,
 * even those after the last closing still in the database, are then missing); and the closing itself is still there.
 */
export async function checkAgainstClosing(db: Db, text: string): Promise<{ ok: boolean; message: string }> {
  const { closing: file, problem } = readExportedClosing(text);
  if (!file) return { ok: false, message: problem ?? 'fichier illisible' };
  const { closing } = file;
  const organizationId = closing.organization_id;
  const entries = await countEntries(db, { organizationId });
  const label = `clôture n° ${closing.number} (${closing.period_end}) de l’organisation n° ${organizationId}`;
  if (entries < closing.last_sequence)
    return {
      ok: false,
      message: `${label} : le journal ne compte plus que ${entries} entrée${entries > 1 ? 's' : ''} sur les ${closing.last_sequence} qu’elle a scellées — les entrées n° ${entries + 1} à ${closing.last_sequence} ont été coupées`,
    };
  if (closing.last_sequence > 0) {
    const [sealed] = await listEntriesBetween(db, { organizationId, after: closing.last_sequence - 1, through: closing.last_sequence });
    if (sealed?.hash !== closing.last_hash)
      return { ok: false, message: `${label} : l’entrée n° ${closing.last_sequence} n’est plus celle qu’elle a scellée` };
  }
  const stored = await findClosing(db, { organizationId, number: closing.number });
  if (stored?.signature !== file.signature)
    return { ok: false, message: `${label} : cette clôture a disparu du journal ou a été remplacée` };
  return {
    ok: true,
    message: `${label} : signature valide, les ${closing.last_sequence} entrées scellées sont toujours là (le journal en compte ${entries})`,
  };
}
