import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { CLOSING_PERIODS, type ClosingSummary } from '../../../shared/schemas/audit';
import { formatMoney } from '../../../shared/format';
import type { AppSettings } from '../../../shared/schemas/settings';
import { trpc } from '../../trpc';
import { Button } from '../../components/ui/button';
import { listStyles } from '../../components/ui/list';
import { Pagination } from '../../components/ui/pagination';
import { settingsSection } from './settings-frame';

const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'UTC' });
const dateOf = (iso: string) => (iso ? day.format(new Date(`${iso}T00:00:00Z`)) : '—');

/** « 01/11/2026 » for a day, « 01/11/2026 → 30/11/2026 » for a longer period. */
const periodText = (c: ClosingSummary) =>
  c.period_start === c.period_end ? dateOf(c.period_start) : `${dateOf(c.period_start)} → ${dateOf(c.period_end)}`;

/** The signed closings of the log (daily, monthly, yearly), each exported as a small signed file to keep elsewhere. */
export function AuditClosings({ currencyFormat }: { currencyFormat: AppSettings['currency_format'] | undefined }) {
  const [page, setPage] = useState({ page: 1, per_page: 10 });
  const closings = trpc.audit.closings.useQuery(page);
  const utils = trpc.useUtils();
  const [exporting, setExporting] = useState<number | null>(null);
  const [failure, setFailure] = useState('');

  async function exportClosing(number: number) {
    setExporting(number);
    setFailure('');
    try {
      const file = await utils.audit.exportClosing.fetch({ number });
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: `cloture-${number}-${file.closing.period_end}.json` });
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'L’export de la clôture a échoué');
    } finally {
      setExporting(null);
    }
  }

  const amounts = (c: ClosingSummary, key: 'sales' | 'payments') =>
    c.cumulative_totals.length === 0 || !currencyFormat
      ? '—'
      : c.cumulative_totals.map((t) => formatMoney(t[key], currencyFormat, t.currency)).join(' ; ');

  const list = closings.data?.data ?? [];
  return (
    <>
      <p className={settingsSection}>Clôtures</p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Chaque nuit, chaque mois et chaque année, le journal est clôturé : la clôture scelle la dernière entrée et les totaux perpétuels des
        ventes et des encaissements, signée par la clé du serveur. Exportez-la et gardez le fichier ailleurs : il permettra de prouver plus
        tard qu’aucune entrée n’a été retirée (l’administrateur du serveur le vérifie avec npm run audit:verify -- --closing fichier.json).
      </p>
      {failure && (
        <p role="alert" className={css({ color: 'danger' })}>
          {failure}
        </p>
      )}
      {closings.data && list.length === 0 ? (
        <p className={listStyles.empty}>Aucune clôture pour l’instant : la première est faite la nuit qui suit la première entrée.</p>
      ) : (
        <div className={listStyles.tableWrap}>
          <table className={listStyles.table} aria-label="Clôtures du journal">
            <thead>
              <tr>
                <th>N°</th>
                <th>Période</th>
                <th>Dates</th>
                <th>Dernière entrée</th>
                <th style={{ textAlign: 'right' }}>Ventes cumulées</th>
                <th style={{ textAlign: 'right' }}>Encaissements cumulés</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.number}>
                  <td className={listStyles.number}>{c.number}</td>
                  <td>{CLOSING_PERIODS[c.period]}</td>
                  <td>{periodText(c)}</td>
                  <td className={listStyles.number}>{c.last_sequence}</td>
                  <td className={listStyles.number} style={{ textAlign: 'right' }}>
                    {amounts(c, 'sales')}
                  </td>
                  <td className={listStyles.number} style={{ textAlign: 'right' }}>
                    {amounts(c, 'payments')}
                  </td>
                  <td>
                    <Button variant="outline" size="sm" onClick={() => void exportClosing(c.number)} disabled={exporting === c.number}>
                      Exporter
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        page={page.page}
        perPage={page.per_page}
        total={closings.data?.total ?? 0}
        onChange={(patch) => setPage((p) => ({ ...p, ...patch }))}
      />
    </>
  );
}
