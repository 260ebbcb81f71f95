import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { Spinner } from '../../components/ui/spinner';
import { formatCompactMoney, formatDateShort } from '../../../shared/format';
import { formatRate, NARROW_NBSP } from '../../../shared/typography';
import { DSO_MIN_DAYS } from '../../../shared/reports';
import { BarChart } from './bar-chart';
import { cardStyle, csvNumber, ReportCard } from './report-card';
import { periodAxis, periodKeys, periodLabel } from '../../../shared/report-period';
import { PeriodPicker, usePeriod } from './period-picker';
import { RankingCard } from './ranking-card';
import { Kpi } from './kpi';
import { ReceiptsCard } from './receipts-card';
import { VatReturnCard } from './vat-return-card';

const styles = {
  page: css({ display: 'flex', flexDirection: 'column', gap: '4' }),
  grid: css({ display: 'grid', gridTemplateColumns: { base: '1fr', xl: 'repeat(2, minmax(0, 1fr))' }, gap: '4', alignItems: 'start' }),
  kpis: css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(4, minmax(0, 1fr))' },
    gap: '4',
  }),
  note: css({ fontSize: 'sm', color: 'fg.muted', mt: '3' }),
};

/** Statistiques: turnover, customers, receivables, expenses and margin, VAT, and the livre des recettes. */
export default function ReportsPage() {
  const period = usePeriod();
  const { range, valid, compared, group } = period;
  const { kind, comparison } = period.picked;
  const money = useMoney();
  const org = trpc.organization.get.useQuery(undefined, { staleTime: Infinity });
  const enabled = { enabled: valid };
  const turnover = trpc.reports.turnover.useQuery({ ...range, group }, enabled);
  const before = trpc.reports.turnover.useQuery({ ...(compared ?? range), group }, { enabled: valid && compared !== null });
  const customers = trpc.reports.customers.useQuery(range, enabled);
  const items = trpc.reports.items.useQuery(range, enabled);
  const tags = trpc.reports.tags.useQuery(range, enabled);
  const vat = trpc.reports.vat.useQuery(range, enabled);
  const margin = trpc.reports.margin.useQuery(range, enabled);
  const receivables = trpc.reports.receivables.useQuery();
  const franchise = org.data?.vat_regime === 'franchise';
  const receipts = trpc.reports.receipts.useQuery({ ...range, page: 1 }, { enabled: valid && franchise });
  const urssaf = trpc.reports.urssaf.useQuery({ ...range, group: kind === 'month' ? 'month' : 'quarter' }, { enabled: valid && franchise });

  const currency = turnover.data?.currency ?? 'EUR';
  const fmt = (n: number) => money(n, currency);
  const compact = (n: number) => formatCompactMoney(n, currency);

  const keys = periodKeys(range, group);
  const beforeKeys = compared ? periodKeys(compared, group) : [];
  const byKey = new Map(turnover.data?.data.map((d) => [d.period, d]));
  const beforeByKey = new Map(before.data?.data.map((d) => [d.period, d]));
  const totalNet = turnover.data?.data.reduce((s, d) => s + d.net, 0) ?? 0;
  const totalTtc = turnover.data?.data.reduce((s, d) => s + d.total, 0) ?? 0;
  const beforeNet = before.data?.data.reduce((s, d) => s + d.net, 0) ?? 0;
  const variation = compared && beforeNet !== 0 ? Math.round(((totalNet - beforeNet) / Math.abs(beforeNet)) * 1000) / 10 : null;
  const hasTurnover = (turnover.data?.data.length ?? 0) > 0 || (before.data?.data.length ?? 0) > 0;
  const marginTotal = margin.data?.data.reduce((s, d) => s + d.margin, 0) ?? 0;
  const expensesTotal = margin.data?.data.reduce((s, d) => s + d.expenses, 0) ?? 0;
  const comparedName = comparison === 'previous_year' ? 'Année précédente' : 'Période précédente';

  return (
    <div className={styles.page}>
      <section className={cardStyle} aria-label="Choix de la période">
        <PeriodPicker picked={period.picked} set={period.set} />
        {!valid && (
          <p className={css({ color: 'danger', mt: '2', fontSize: 'sm' })} role="alert">
            La date de fin (Au) doit suivre la date de début (Du).
          </p>
        )}
        {[turnover, customers, items, tags, vat, margin].find((q) => q.error) && (
          <p className={css({ color: 'danger', mt: '2', fontSize: 'sm' })} role="alert">
            {[turnover, customers, items, tags, vat, margin].find((q) => q.error)?.error?.message}
          </p>
        )}
      </section>

      {turnover.isPending && valid ? (
        <section className={cardStyle} role="status">
          <Spinner label="Calcul des statistiques" />
        </section>
      ) : (
        <>
          <div className={styles.kpis}>
            <Kpi label="Chiffre d’affaires HT" value={fmt(totalNet)} detail={`${fmt(totalTtc)} TTC`} />
            <Kpi
              label={
                compared ? `Par rapport à ${comparison === 'previous_year' ? 'l’année précédente' : 'la période précédente'}` : 'Évolution'
              }
              value={variation === null ? '—' : `${variation > 0 ? '+' : ''}${formatRate(variation)}`}
              detail={
                compared
                  ? `${fmt(beforeNet)} HT du ${formatDateShort(compared.from)} au ${formatDateShort(compared.to)}`
                  : 'Aucune comparaison'
              }
              tone={variation === null ? undefined : variation >= 0 ? 'up' : 'down'}
            />
            <Kpi label="Marge (CA − dépenses)" value={fmt(marginTotal)} detail={`${fmt(expensesTotal)} de dépenses HT`} />
            {franchise ? (
              <Kpi label="Encaissé" value={fmt(receipts.data?.total ?? 0)} detail="Livre des recettes de la période" />
            ) : (
              <Kpi
                label={(vat.data?.due ?? 0) < 0 ? 'Crédit de TVA' : 'TVA nette due'}
                value={fmt(Math.abs(vat.data?.due ?? 0))}
                detail={vat.data?.basis === 'debits' ? 'TVA sur les débits' : 'Services : TVA sur les encaissements'}
              />
            )}
          </div>

          <ReportCard
            title="Chiffre d’affaires"
            file="chiffre-affaires"
            empty="Aucune facture émise sur cette période : le chiffre d’affaires s’affichera dès la première."
            chart={
              hasTurnover && (
                <BarChart
                  labels={keys.map(periodLabel)}
                  axis={periodAxis(keys)}
                  series={[
                    {
                      name: `${formatDateShort(range.from)} – ${formatDateShort(range.to)}`,
                      values: keys.map((k) => byKey.get(k)?.net ?? 0),
                      tone: 'accent',
                    },
                    ...(compared
                      ? [{ name: comparedName, values: beforeKeys.map((k) => beforeByKey.get(k)?.net ?? 0), tone: 'muted' as const }]
                      : []),
                  ]}
                  format={fmt}
                  compact={compact}
                />
              )
            }
            table={{
              header: ['Période', 'Factures et avoirs', 'HT', 'TVA', 'TTC', ...(compared ? [`HT ${comparedName.toLowerCase()}`] : [])],
              numeric: [false, true, true, true, true, true],
              rows: hasTurnover
                ? keys.map((k, i) => {
                    const d = byKey.get(k);
                    const b = beforeByKey.get(beforeKeys[i] ?? '');
                    const values = [d?.count ?? 0, d?.net ?? 0, d?.tax ?? 0, d?.total ?? 0];
                    return {
                      cells: [
                        periodLabel(k),
                        String(values[0]),
                        fmt(values[1] ?? 0),
                        fmt(values[2] ?? 0),
                        fmt(values[3] ?? 0),
                        ...(compared ? [fmt(b?.net ?? 0)] : []),
                      ],
                      csv: [k, ...values.map(csvNumber), ...(compared ? [csvNumber(b?.net ?? 0)] : [])],
                    };
                  })
                : [],
            }}
          />

          <div className={styles.grid}>
            <RankingCard
              title="Par client (HT)"
              file="clients"
              empty="Aucune vente sur cette période."
              column="Client"
              restLabel="Autres clients"
              ranking={customers.data}
              format={fmt}
            />
            <RankingCard
              title="Par article (HT)"
              file="articles"
              empty="Aucune ligne vendue sur cette période."
              column="Article"
              restLabel="Autres articles"
              ranking={items.data}
              format={fmt}
            >
              <p className={styles.note}>Montant HT des lignes, avant la remise sur le document et sans les frais de port.</p>
            </RankingCard>
            <RankingCard
              title="Par étiquette client (HT)"
              file="etiquettes"
              empty="Aucune vente à un client étiqueté sur cette période (Paramètres → Étiquettes)."
              column="Étiquette"
              restLabel="Autres étiquettes"
              // Only « Sans étiquette »: no tag to compare, the empty state says where tags are made.
              ranking={tags.data?.data.some((t) => t.id !== null) ? tags.data : undefined}
              format={fmt}
            >
              <p className={styles.note}>Un client à plusieurs étiquettes compte sous chacune (Paramètres → Étiquettes).</p>
            </RankingCard>
            <ReportCard
              title="Créances clients par ancienneté"
              file="creances"
              empty="Aucune facture à encaisser."
              chart={
                receivables.data && (
                  <BarChart
                    labels={receivables.data.buckets.map((b) => b.label.replace(' jours', ' j'))}
                    series={[
                      {
                        name: 'Reste dû TTC',
                        values: receivables.data.buckets.map((b) => b.amount),
                        tone: 'danger',
                        // Not yet due is no alarm: the brand's colour; a month late a warning, later the alarm.
                        tones: receivables.data.buckets.map((_, i) => (i === 0 ? 'accent' : i === 1 ? 'warning' : 'danger')),
                      },
                    ]}
                    narrow
                    format={fmt}
                    compact={compact}
                  />
                )
              }
              table={{
                header: ['Retard', 'Factures', 'Reste dû TTC'],
                numeric: [false, true, true],
                rows:
                  receivables.data && receivables.data.total !== 0
                    ? receivables.data.buckets.map((b) => ({
                        cells: [b.label, String(b.count), fmt(b.amount)],
                        csv: [b.label, String(b.count), csvNumber(b.amount)],
                      }))
                    : [],
              }}
            >
              <p className={styles.note}>
                {receivables.data === undefined
                  ? null
                  : receivables.data.dso === null || receivables.data.dso_days === null
                    ? `Délai moyen de paiement (DSO) : — (il se calcule sur au moins ${DSO_MIN_DAYS} jours de ventes). Total dû : ${fmt(receivables.data.total)}.`
                    : `Délai moyen de paiement (DSO) : ${receivables.data.dso} jours (créances ÷ ventes TTC des ${receivables.data.dso_days} derniers jours × ${receivables.data.dso_days}). Total dû : ${fmt(receivables.data.total)}.`}
              </p>
            </ReportCard>
          </div>

          <ReportCard
            title="Clients en retard de paiement"
            file="clients-en-retard"
            empty="Aucun client en retard : toutes les échéances passées sont réglées."
            table={{
              header: ['Client', 'Factures échues', 'Plus ancienne échéance', 'Reste dû TTC'],
              numeric: [false, true, false, true],
              rows: (receivables.data?.late_customers ?? []).map((c) => ({
                cells: [c.name, String(c.count), formatDateShort(c.oldest), fmt(c.amount)],
                csv: [c.name, String(c.count), formatDateShort(c.oldest), csvNumber(c.amount)],
              })),
            }}
          />

          <ReportCard
            title="Dépenses et marge par mois (HT)"
            file="marge"
            empty="Ni vente ni dépense sur cette période."
            chart={
              margin.data && (
                <BarChart
                  labels={margin.data.data.map((d) => periodLabel(d.period))}
                  axis={periodAxis(margin.data.data.map((d) => d.period))}
                  series={[
                    { name: 'Chiffre d’affaires', values: margin.data.data.map((d) => d.turnover), tone: 'accent' },
                    { name: 'Dépenses', values: margin.data.data.map((d) => d.expenses), tone: 'muted' },
                  ]}
                  format={fmt}
                  compact={compact}
                />
              )
            }
            table={{
              header: ['Mois', 'Chiffre d’affaires', 'Dépenses', 'Marge'],
              numeric: [false, true, true, true],
              rows: (margin.data?.data ?? []).map((d) => ({
                cells: [periodLabel(d.period), fmt(d.turnover), fmt(d.expenses), fmt(d.margin)],
                csv: [d.period, csvNumber(d.turnover), csvNumber(d.expenses), csvNumber(d.margin)],
              })),
            }}
          />

          {franchise && (
            <ReportCard
              title="Recettes à déclarer à l’URSSAF"
              file="urssaf"
              empty="Aucun encaissement sur cette période."
              chart={
                urssaf.data && (
                  <BarChart
                    labels={urssaf.data.data.map((d) => periodLabel(d.period))}
                    axis={periodAxis(urssaf.data.data.map((d) => d.period))}
                    series={[
                      { name: 'Ventes de marchandises', values: urssaf.data.data.map((d) => d.goods), tone: 'accent' },
                      { name: 'Prestations de services', values: urssaf.data.data.map((d) => d.services), tone: 'muted' },
                    ]}
                    format={fmt}
                    compact={compact}
                  />
                )
              }
              table={{
                header: ['Période', 'Ventes de marchandises', 'Prestations de services', 'Total'],
                numeric: [false, true, true, true],
                rows: (urssaf.data?.data ?? []).map((d) => ({
                  cells: [periodLabel(d.period), fmt(d.goods), fmt(d.services), fmt(d.total)],
                  csv: [d.period, csvNumber(d.goods), csvNumber(d.services), csvNumber(d.total)],
                })),
              }}
            >
              {urssaf.data && (
                <p className={styles.note}>
                  Franchise en base en {urssaf.data.year.year} (art. 293 B du CGI) : {fmt(urssaf.data.year.goods)} de ventes, soit{' '}
                  {formatRate(urssaf.data.year.reached.goods)} du seuil de {fmt(urssaf.data.year.thresholds.goods)}
                  {NARROW_NBSP}; {fmt(urssaf.data.year.services)} de services, soit {formatRate(urssaf.data.year.reached.services)} du seuil
                  de {fmt(urssaf.data.year.thresholds.services)}.
                </p>
              )}
            </ReportCard>
          )}
          {franchise ? (
            <ReceiptsCard key={`${range.from} ${range.to}`} range={range} format={fmt} />
          ) : (
            <VatReturnCard vat={vat.data} yearly={kind === 'year'} format={fmt} range={range} />
          )}
        </>
      )}
    </div>
  );
}
