import { useState } from 'react';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/routers/_app';
import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { showMessage } from '../stores/snackbar';
import { Dialog } from './ui/dialog';
import { Button } from './ui/button';
import { FileButton } from './ui/file-button';
import { listStyles } from './ui/list';
import { plural, pluralWord } from '../../shared/french';

type Report = inferRouterOutputs<AppRouter>['customers']['import']['data'];
export type CsvEntity = 'customers' | 'items';

const TEXTS: Record<CsvEntity, { title: string; noun: [string, string]; columns: string }> = {
  customers: {
    title: 'Importer des clients',
    noun: ['client', 'clients'],
    columns:
      'Nom, Type, Raison sociale, E-mail, Téléphone, SIREN/SIRET, N° TVA, Adresse, Code postal, Ville, Pays, Délai de paiement, Devise, Note',
  },
  items: {
    title: 'Importer des articles',
    noun: ['article', 'articles'],
    columns:
      'Code, Désignation, Référence, Description, Unité, Prix unitaire HT, Nature (service ou bien), TVA (« TVA 20 % » ou « 20 », plusieurs séparées par « + »), Actif (oui/non)',
  },
};

/**
 * Spreadsheets in France often save CSV as Windows-1252: a file that is not valid UTF-8 is read that way, and the
 * person is told, so accents arrive intact either way.
 */
export async function readCsvFile(file: File): Promise<{ text: string; encoding: 'UTF-8' | 'Windows-1252' }> {
  const bytes = await file.arrayBuffer();
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

/** Import: pick a file, read the dry-run report (every rejected line and why), then import the valid rows or cancel. */
export function CsvImportDialog({ entity, open, onClose }: { entity: CsvEntity; open: boolean; onClose: () => void }) {
  const texts = TEXTS[entity];
  const procedures = trpc[entity];
  const [file, setFile] = useState<{ name: string; text: string; encoding: string } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const utils = trpc.useUtils();
  const check = procedures.import.useMutation({ onSuccess: (a) => setReport(a.data) });
  const run = procedures.import.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      void utils[entity].invalidate();
      close();
    },
  });
  const close = () => {
    setFile(null);
    setReport(null);
    onClose();
  };

  async function pick(picked: File) {
    if (picked.size > 10 * 1024 * 1024) return showMessage('Le fichier dépasse 10 Mo', 400);
    const { text, encoding } = await readCsvFile(picked);
    setFile({ name: picked.name, text, encoding });
    setReport(null);
    check.mutate({ csv: text, dry_run: true });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={texts.title}
      width={640}
      persistent
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Annuler
          </Button>
          <Button
            disabled={!report || report.valid === 0}
            loading={run.isPending}
            onClick={() => file && run.mutate({ csv: file.text, dry_run: false })}
          >
            {report ? `Importer ${report.valid} ${texts.noun[report.valid > 1 ? 1 : 0]}` : 'Importer'}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', fontSize: 'sm', pb: '2' })}>
        <p className={css({ color: 'fg.muted', lineHeight: '1.5' })}>
          Un fichier CSV (séparateur « ; », comme l’enregistre Excel) dont la première ligne nomme les colonnes : {texts.columns}. Rien
          n’est enregistré avant votre confirmation.
        </p>
        <FileButton
          variant="link"
          accept=".csv,text/csv"
          onFile={(picked) => void pick(picked)}
          aria-label={`Fichier CSV des ${texts.noun[1]}`}
          className={css({ alignSelf: 'flex-start', whiteSpace: 'normal', textAlign: 'left' })}
        >
          {file ? `Fichier : ${file.name} (${file.encoding}) — en choisir un autre` : 'Choisir un fichier CSV'}
        </FileButton>
        {check.isPending && <p role="status">Vérification du fichier…</p>}
        {report && (
          <div role="status" data-testid="import-report" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
            <p>
              <strong>{report.total_rows}</strong> {pluralWord(report.total_rows, 'ligne lue', 'lignes lues')} :{' '}
              <strong>{report.valid}</strong> {pluralWord(report.valid, 'prête')} à importer, <strong>{report.rejected.length}</strong>{' '}
              {pluralWord(report.rejected.length, 'rejetée')}.
            </p>
            {report.ignored_columns.length > 0 && (
              <p className={css({ color: 'fg.muted' })}>Colonnes ignorées : {report.ignored_columns.join(', ')}</p>
            )}
            {report.changed.length > 0 && (
              <details data-testid="import-changed">
                <summary>{plural(report.changed.length, 'cellule lue', 'cellules lues')} autrement que dans le fichier</summary>
                <ul className={css({ maxH: '160px', overflowY: 'auto', pl: '4', listStyle: 'disc' })}>
                  {report.changed.map((c) => (
                    <li key={`${c.line}-${c.column}`}>
                      Ligne {c.line}, « {c.column} » : {c.message}
                    </li>
                  ))}
                </ul>
              </details>
            )}
            {report.rejected.length > 0 && (
              <div className={css({ maxH: '240px', overflowY: 'auto' })}>
                <table className={listStyles.table}>
                  <thead>
                    <tr>
                      <th>Ligne</th>
                      <th>Pourquoi</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.rejected.map((r) => (
                      <tr key={r.line}>
                        <td className={listStyles.number}>{r.line}</td>
                        <td>{r.messages.join(' · ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
      </div>
    </Dialog>
  );
}
