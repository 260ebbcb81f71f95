import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { EREPORTING_FIRST_DAY, EREPORTING_KIND_LABELS, EREPORTING_START_NOTICE } from '../../../shared/ereporting';
import type { EreportingRow } from '../../../shared/schemas/ereporting';
import { OVERVIEW_GROUP_LABELS, OVERVIEW_GROUPS, type OverviewGroup, type OverviewRow } from '../../../shared/schemas/einvoicing-overview';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';

const STATUS: Record<EreportingRow['status'], { label: string; tone: 'muted' | 'warning' | 'danger' | 'success' }> = {
  open: { label: 'Période en cours', tone: 'muted' },
  to_send: { label: 'À transmettre', tone: 'warning' },
  invalid: { label: 'Non conforme (non envoyée)', tone: 'danger' },
  failed: { label: 'Échec de l’envoi', tone: 'danger' },
  pending: { label: 'Déposée, en attente de la plateforme', tone: 'muted' },
  accepted: { label: 'Acceptée', tone: 'success' },
  rejected: { label: 'Rejetée', tone: 'danger' },
  changed: { label: 'Données modifiées : à renvoyer corrigée', tone: 'warning' },
};
/** What each report's amount is: sales and purchases are declared excluding VAT, payments as received. */
const AMOUNT_NOTE: Record<EreportingRow['kind'], string> = {
  transactions: 'HT',
  international: 'HT',
  purchases: 'HT',
  payments: 'TTC encaissé',
};
const TONES = {
  muted: css({ color: 'fg.muted' }),
  warning: css({ color: 'warning', fontWeight: '600' }),
  danger: css({ color: 'danger', fontWeight: '600' }),
  success: css({ color: 'success', fontWeight: '600' }),
};
/** What « Transmettre » is called for each state: a corrected report replaces one the platform already holds. */
const ACTION: Partial<Record<EreportingRow['status'], string>> = {
  to_send: 'Transmettre',
  invalid: 'Réessayer',
  failed: 'Réessayer',
  rejected: 'Renvoyer corrigée',
  changed: 'Renvoyer corrigée',
};

const styles = {
  page: css({ display: 'grid', gap: '4' }),
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '4', md: '6' },
    display: 'grid',
    gap: '3',
  }),
  table: css({
    width: '100%',
    borderCollapse: 'collapse',
    fontSize: 'sm',
    '& th': { textAlign: 'left', color: 'fg.muted', fontWeight: '600', py: '2', px: '2', borderBottomWidth: '1px' },
    '& td': { py: '2', px: '2', borderBottomWidth: '1px', borderColor: 'border.subtle', verticalAlign: 'top' },
  }),
  amount: css({ textAlign: 'right!', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }),
  errors: css({ color: 'danger', fontSize: 'xs', mt: '1', display: 'grid', gap: '0.5' }),
  muted: css({ color: 'fg.muted', fontSize: 'xs' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' }),
  year: css({ display: 'flex', gap: '2', alignItems: 'center' }),
  group: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center', border: 'none', p: '0', m: '0', minW: '0' }),
  chip: css({
    px: '3',
    py: '1',
    borderRadius: 'full',
    borderWidth: '1px',
    borderColor: 'border.default',
    fontSize: 'sm',
    cursor: 'pointer',
    bg: 'bg.default',
    '&[aria-pressed=true]': { bg: 'accent.solid', color: 'fg.onAccent', borderColor: 'accent.solid', fontWeight: '600' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  }),
};

const hrefOf = (target: OverviewRow['target']) =>
  target.kind === 'document'
    ? `/${target.type === 'credit' ? 'credits' : 'invoices'}/${target.id}/view`
    : target.kind === 'expense'
      ? '/expenses'
      : target.kind === 'ereporting'
        ? `#ereporting-${target.period}`
        : null;

/** Everything that went to or came from the platform, grouped: what was sent, accepted, rejected, received, reported, what waits, what needs the user. */
function Overview() {
  const overview = trpc.einvoicing.overview.useQuery();
  const [group, setGroup] = useState<OverviewGroup>('needs_user');
  if (!overview.data) return overview.isError ? null : <Spinner label="Chargement de la facturation électronique" />;
  const rows = overview.data.data.filter((r) => r.group === group);
  return (
    <section className={styles.card} aria-labelledby="overview-title">
      <h2 id="overview-title" className={css({ fontSize: 'lg', fontWeight: '700' })}>
        D’un coup d’œil
      </h2>
      <fieldset className={styles.group}>
        <legend className={css({ srOnly: true })}>Afficher</legend>
        {OVERVIEW_GROUPS.map((g) => (
          <button key={g} type="button" className={styles.chip} aria-pressed={g === group} onClick={() => setGroup(g)}>
            {OVERVIEW_GROUP_LABELS[g]} ({overview.data.counts[g] ?? 0})
          </button>
        ))}
      </fieldset>
      {rows.length === 0 ? (
        <p className={styles.muted}>Rien ici.</p>
      ) : (
        <ul className={css({ display: 'grid', gap: '2' })} data-testid="overview-rows">
          {rows.slice(0, 50).map((row) => {
            const href = hrefOf(row.target);
            return (
              <li
                key={`${row.title}-${row.date}`}
                className={css({ fontSize: 'sm', borderBottomWidth: '1px', borderColor: 'border.subtle', pb: '2' })}
              >
                {href ? (
                  <a href={href} className={css({ color: 'accent.fg', fontWeight: '600' })}>
                    {row.title}
                  </a>
                ) : (
                  <span className={css({ fontWeight: '600' })}>{row.title}</span>
                )}
                {` · ${row.state} · ${formatDateShort(row.date.slice(0, 10))}`}
                {row.detail && <div className={styles.muted}>{row.detail}</div>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** « 3 factures », « 1 encaissement »: what the report counts, in its own words. */
const COUNT_NOUNS: Record<EreportingRow['kind'], [string, string]> = {
  transactions: ['vente', 'ventes'],
  international: ['facture', 'factures'],
  purchases: ['facture', 'factures'],
  payments: ['encaissement', 'encaissements'],
};
const countLabel = (row: EreportingRow) => `${row.count} ${COUNT_NOUNS[row.kind][row.count > 1 ? 1 : 0]}`;

/** The first year with periods to report (the reform's): the table does not go back before it. */
const FIRST_YEAR = Number(EREPORTING_FIRST_DAY.slice(0, 4));

/** The year of the period a link points at (`#ereporting-2026-12`), or null for any other link. */
const yearOfLink = (hash: string): number | null => {
  const year = /^#ereporting-(\d{4})/.exec(hash)?.[1];
  return year ? Number(year) : null;
};

const periodLabel = (row: EreportingRow) => `${formatDateShort(row.from)} – ${formatDateShort(row.to)}`;
const keyOf = (row: EreportingRow) => `${row.period}-${row.kind}`;

/**
 * /einvoicing: the e-reporting of the organisation, each period of its VAT regime with its four reports (10.3 sales
 * to private persons, 10.1 international B2B sales and purchases, 10.2/10.4 payments of services): amount and how
 * many operations, where each report stands,
 * the errors that stop it or the platform's, and « Transmettre » or « Renvoyer corrigée ».
 */
export function EinvoicingPage() {
  const [year, setYear] = useState(() => yearOfLink(window.location.hash) ?? new Date().getFullYear());
  const money = useMoney();
  const utils = trpc.useUtils();
  const canTransmit = useCan('ereporting.transmit');
  const list = trpc.ereporting.list.useQuery({ year });
  // A link to a period (from « D’un coup d’œil », or a bookmark) opens its year: in January, December's reports to send
  // are last year's, which the table would not show.
  const linked = useRef(window.location.hash);
  useEffect(() => {
    const follow = () => {
      const linkedYear = yearOfLink(window.location.hash);
      if (linkedYear === null) return;
      linked.current = window.location.hash;
      setYear(linkedYear);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  // The browser looked for the period before its rows were drawn: brought into view once they are, then left alone.
  useEffect(() => {
    if (!list.data || !linked.current) return;
    document.getElementById(linked.current.slice(1))?.scrollIntoView({ block: 'center' });
    linked.current = '';
  }, [list.data]);
  const [sending, setSending] = useState<string | null>(null);
  const transmit = trpc.ereporting.transmit.useMutation({ meta: { silent: true } });

  async function send(row: EreportingRow) {
    setSending(keyOf(row));
    try {
      const answer = await transmit.mutateAsync({ period: row.period, kind: row.kind });
      showMessage(answer.messages, 200);
    } catch (error) {
      const { messages, status } = errorInfo(error);
      showMessage([messages].flat()[0] ?? 'Échec de la transmission', status);
    } finally {
      setSending(null);
      void utils.ereporting.list.invalidate();
      void utils.einvoicing.overview.invalidate();
    }
  }

  return (
    <div className={styles.page}>
      <Overview />
      <section className={styles.card} aria-labelledby="ereporting-title">
        <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
          <div>
            <h2 id="ereporting-title" className={css({ fontSize: 'lg', fontWeight: '700' })}>
              E-reporting
            </h2>
            <p className={styles.muted}>
              Chaque période de votre régime de TVA, quatre déclarations à la plateforme agréée : les ventes aux particuliers totalisées par
              jour et par taux (flux 10.3), les ventes aux entreprises établies hors de France et vos achats auprès de fournisseurs établis
              hors de France, facture par facture (10.1), et les encaissements des prestations de services dont la TVA est due à
              l’encaissement (10.2, 10.4). Les ventes aux entreprises françaises et les factures reçues par la plateforme partent en
              factures électroniques.
            </p>
          </div>
          <div className={styles.year}>
            <Button size="sm" variant="ghost" onClick={() => setYear(year - 1)} disabled={year <= FIRST_YEAR} aria-label="Année précédente">
              ‹
            </Button>
            <strong>{year}</strong>
            <Button size="sm" variant="ghost" onClick={() => setYear(year + 1)} aria-label="Année suivante">
              ›
            </Button>
          </div>
        </div>
        {list.isError && <p className={TONES.danger}>{[errorInfo(list.error).messages].flat().join(' ')}</p>}
        {!list.data && !list.isError && <Spinner label="Chargement des périodes" />}
        {list.data && list.data.data.length === 0 && (
          <p className={styles.muted}>{year < FIRST_YEAR ? `${EREPORTING_START_NOTICE}.` : 'Aucune période commencée cette année.'}</p>
        )}
        {list.data && list.data.data.length > 0 && (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Période</th>
                <th>Déclaration</th>
                <th className={styles.amount}>Montant</th>
                <th>État</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((row, index, rows) => {
                const first = rows[index - 1]?.period !== row.period;
                const span = rows.filter((r) => r.period === row.period).length;
                return (
                  <tr
                    key={keyOf(row)}
                    id={first ? `ereporting-${row.period}` : undefined}
                    data-testid={`ereporting-${keyOf(row)}`}
                    className={first ? undefined : css({ '& td': { borderTopWidth: '0' } })}
                  >
                    {first && (
                      <td rowSpan={span}>
                        <div className={css({ fontWeight: '600' })}>{row.period}</div>
                        <div className={styles.muted}>{periodLabel(row)}</div>
                      </td>
                    )}
                    <td>{EREPORTING_KIND_LABELS[row.kind]}</td>
                    <td className={styles.amount}>
                      {money(row.amount, 'EUR')}
                      <div className={styles.muted}>
                        {AMOUNT_NOTE[row.kind]} · {countLabel(row)}
                      </div>
                    </td>
                    <td>
                      <span className={TONES[STATUS[row.status].tone]}>{STATUS[row.status].label}</span>
                      {row.version !== null && (
                        <div className={styles.muted}>
                          {row.type_code === 'RE' ? `Rectificative n° ${row.version}` : 'Initiale'}
                          {row.flow_id ? ` · flux ${row.flow_id}` : ''}
                          {row.sent_at ? ` · ${formatDateShort(row.sent_at.slice(0, 10))}` : ''}
                        </div>
                      )}
                      {row.errors.length > 0 && (
                        <ul className={styles.errors}>
                          {row.errors.slice(0, 5).map((e) => (
                            <li key={e}>{e}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>
                      <div className={styles.actions}>
                        {row.status !== 'open' && (
                          <a
                            className={css({ color: 'accent.fg', fontWeight: '600' })}
                            href={`/api/ereporting/${row.period}/xml?kind=${row.kind}`}
                            download={`ereporting-${keyOf(row)}.xml`}
                            aria-label={`Fichier XML ${row.period}, ${EREPORTING_KIND_LABELS[row.kind]}`}
                          >
                            Fichier XML
                          </a>
                        )}
                        {canTransmit && ACTION[row.status] && (
                          <Button
                            size="sm"
                            loading={sending === keyOf(row)}
                            disabled={sending !== null}
                            onClick={() => void send(row)}
                            aria-label={`${ACTION[row.status]} ${row.period}, ${EREPORTING_KIND_LABELS[row.kind]}`}
                          >
                            {ACTION[row.status]}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <p className={styles.muted}>
          La connexion à la plateforme se règle dans{' '}
          <Link href="/settings/einvoicing" className={css({ color: 'accent.fg', fontWeight: '600' })}>
            Paramètres → Facturation électronique
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
