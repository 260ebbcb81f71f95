import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { AUDIT_EVENTS, type AuditEntry, type AuditVerification } from '../../../shared/schemas/audit';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { DOCUMENT_TYPES } from '../../../shared/schemas/document';
import { formatMoney } from '../../../shared/format';
import { trpc } from '../../trpc';
import { Button } from '../../components/ui/button';
import { listStyles } from '../../components/ui/list';
import { Pagination } from '../../components/ui/pagination';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { plural, pluralWord } from '../../../shared/french';
import { AuditClosings } from './audit-closings';

const typeLabel = (type: string) =>
  (DOCUMENT_TYPES as readonly string[]).includes(type) ? DOCUMENT_TYPE_TABLE[type as keyof typeof DOCUMENT_TYPE_TABLE].one : type;

/** What the entry is about: the document and its number, the customer archived, the series renumbered. */
function subjectOf(content: AuditEntry['content']): string {
  if (content.document) return `${typeLabel(content.document.type)} ${content.document.number ?? ''}`.trim();
  if (content.customer) return `Client ${content.customer.number} — ${content.customer.name}`;
  if (content.numbering) return `${typeLabel(content.numbering.type)} : ${content.numbering.from} → ${content.numbering.to}`;
  return '—';
}

const BACKFILLED_TITLE = 'Inscrite à la mise en place du journal, pour ce qui s’est passé avant lui : sa date est celle de l’inscription';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });

export function verificationText(result: AuditVerification): string {
  if (result.ok) return `Journal intègre : ${plural(result.entries, 'entrée')} ${pluralWord(result.entries, 'vérifiée')}`;
  const where = result.first_broken === undefined ? 'Journal altéré' : `Journal altéré à partir de l’entrée n° ${result.first_broken}`;
  return result.reason ? `${where} — ${result.reason}` : where;
}

/** Paramètres → Journal: the append-only, hash-chained log of issues, payments and changes, and its verification. */
export function AuditSettingsPage() {
  const [page, setPage] = useState({ page: 1, per_page: 25 });
  const entries = trpc.audit.list.useQuery(page);
  const verify = trpc.audit.verify.useQuery(undefined, { enabled: false, gcTime: 0 });
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000 });
  const currencyFormat = settings.data && 'currency_format' in settings.data ? settings.data.currency_format : undefined;

  function amountOf(content: AuditEntry['content']): string {
    const amount = content.payment?.amount ?? content.document?.total;
    if (amount === undefined || !currencyFormat) return '';
    return formatMoney(amount, currencyFormat, content.document?.currency);
  }

  const list = entries.data?.data ?? [];
  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Journal</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Chaque émission de document, paiement, annulation de paiement, changement de numérotation, archivage de client et archivage du PDF
          d’une facture ou d’un avoir est inscrit ici, sans retour possible : chaque entrée porte l’empreinte de son contenu et de l’entrée
          précédente, calculée avec une clé gardée hors de la base de données. La vérification contrôle aussi que chaque PDF conservé n’a
          pas changé, que chaque document émis et chaque paiement a son entrée et que les clôtures tiennent toujours.
        </p>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
          <Button onClick={() => void verify.refetch()} disabled={verify.isFetching}>
            Vérifier l’intégrité
          </Button>
          {verify.data && (
            <p
              role="status"
              data-testid="audit-verification"
              className={css({ fontWeight: '600', color: verify.data.ok ? 'success' : 'danger' })}
            >
              {verificationText(verify.data)}
            </p>
          )}
        </div>
        {entries.data && list.length === 0 ? (
          <p className={listStyles.empty}>Aucune entrée pour l’instant : le journal commence à la première facture émise.</p>
        ) : (
          <div className={listStyles.tableWrap}>
            <table className={listStyles.table}>
              <thead>
                <tr>
                  <th>N°</th>
                  <th>Date</th>
                  <th>Événement</th>
                  <th>Document</th>
                  <th style={{ textAlign: 'right' }}>Montant</th>
                  <th>Utilisateur</th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => (
                  <tr key={e.sequence}>
                    <td className={listStyles.number}>{e.sequence}</td>
                    <td>{dateTime.format(new Date(e.created_at))}</td>
                    <td>
                      {AUDIT_EVENTS[e.event]}
                      {e.content.backfilled && (
                        <span className={css({ color: 'fg.muted' })} title={BACKFILLED_TITLE}>
                          {' '}
                          (reprise)
                        </span>
                      )}
                    </td>
                    <td>{subjectOf(e.content)}</td>
                    <td className={listStyles.number} style={{ textAlign: 'right' }}>
                      {amountOf(e.content)}
                    </td>
                    <td>{e.content.user?.name ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={page.page}
          perPage={page.per_page}
          total={entries.data?.total ?? 0}
          onChange={(patch) => setPage((p) => ({ ...p, ...patch }))}
        />
      </section>
      <section className={settingsCard}>
        <AuditClosings currencyFormat={currencyFormat} />
      </section>
    </SettingsFrame>
  );
}
