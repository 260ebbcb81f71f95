import { Link, useLocation } from 'wouter';
import { DashboardSkeleton } from '../components/skeleton';
import { css, cx } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { useCan } from '../lib/use-can';
import { useMoney } from '../lib/use-money';
import { buttonRecipe } from '../components/ui/button';
import { listStyles } from '../components/ui/list';
import { ResponsiveList } from '../components/ui/responsive-list';
import { FileIcon } from '../components/icons';
import { openHref } from './documents/document-row-actions';
import { documentColumns } from './documents/document-columns';
import { MonthlyChart } from './home/monthly-chart';
import { Shortcuts, useMonthExpenses } from './home/dashboard-extras';
import { UpcomingAppointmentsCard } from './home/upcoming-appointments-card';
import { deName, plural } from '../../shared/french';
import { formatDateShort } from '../../shared/format';
import { OnboardingChecklist } from './home/onboarding-checklist';

const styles = {
  page: css({ display: 'flex', flexDirection: 'column', gap: '4' }),
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    boxShadow: 'card',
    p: { base: '4', md: '5' },
    minW: '0',
  }),
  heading: css({ fontSize: 'md', fontWeight: '700' }),
  headingRow: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: '3', mb: '3', flexWrap: 'wrap' }),
  kpis: css({
    display: 'grid',
    gridTemplateColumns: {
      base: '1fr',
      sm: 'repeat(2, minmax(0, 1fr))',
      lg: 'repeat(3, minmax(0, 1fr))',
      '2xl': 'repeat(6, minmax(0, 1fr))',
    },
    gap: '4',
  }),
  kpiLabel: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' }),
  kpiValue: css({
    fontSize: '2xl',
    fontWeight: '700',
    fontVariantNumeric: 'tabular-nums',
    mt: '1',
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  }),
  kpiDetail: css({ fontSize: 'sm', color: 'fg.muted', mt: '0.5' }),
  alert: css({ color: 'danger' }),
  alertCard: css({ borderColor: 'danger', bg: 'dangerSubtle' }),
};

/** Vue d'ensemble: turnover, what customers owe and what is late, the year month by month, the latest documents. */
export function HomePage() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  const figures = trpc.figures.dashboard.useQuery(undefined, { staleTime: 0 });
  const canCreate = useCan('documents.create');
  const money = useMoney();
  const [, navigate] = useLocation();
  const f = figures.data;
  const fmt = (amount: number) => money(amount, f?.currency);
  const now = new Date();
  const expenses = useMonthExpenses(f?.currency);

  return (
    <div className={styles.page}>
      <section className={styles.card}>
        <h2 className={css({ fontSize: 'xl', fontWeight: '700' })}>Bonjour {me.data?.first_name}</h2>
        <p className={css({ color: 'fg.muted', mt: '1' })}>Bienvenue dans l’espace {me.data ? deName(me.data.organization.name) : ''}.</p>
        <div className={css({ mt: '3' })}>
          <Shortcuts />
        </div>
      </section>
      <OnboardingChecklist className={styles.card} />
      <UpcomingAppointmentsCard className={styles.card} />
      {figures.isPending ? (
        <DashboardSkeleton greeting={false} />
      ) : !f ? (
        <section className={cx(styles.card, listStyles.empty)} role="status">
          <p>Les indicateurs n’ont pas pu être chargés.</p>
        </section>
      ) : f.latest.length === 0 ? (
        <section className={cx(styles.card, listStyles.empty)}>
          <FileIcon size={32} />
          <p className={css({ fontWeight: '600', color: 'fg.default' })}>Aucun document pour l’instant</p>
          <p className={css({ fontSize: 'sm', maxW: 'md' })}>
            Créez votre première facture : votre chiffre d’affaires, vos encours et vos retards de paiement s’afficheront ici.
          </p>
          {canCreate && (
            <Link href="/invoices/new/add" className={buttonRecipe()}>
              Nouvelle facture
            </Link>
          )}
        </section>
      ) : (
        <>
          <div className={styles.kpis}>
            <Kpi testId="kpi-month" label="CA HT ce mois-ci" value={fmt(f.turnover_month)} detail="Factures émises moins avoirs" />
            <Kpi testId="kpi-year" label={`CA HT ${now.getFullYear()}`} value={fmt(f.turnover_year)} detail="Depuis le 1er janvier" />
            <Kpi
              testId="kpi-outstanding"
              label="Encours clients"
              value={fmt(f.outstanding)}
              detail={`${plural(f.open_invoices, 'facture', 'factures')} à encaisser`}
              href="/invoices?status=open"
            />
            <Kpi
              testId="kpi-overdue"
              label="En retard"
              value={fmt(f.overdue)}
              detail={`${plural(f.overdue_count, 'facture exigible', 'factures exigibles')}`}
              alert={f.overdue_count > 0}
              href="/invoices?status=overdue"
            />
            <Kpi
              testId="kpi-received"
              label="Encaissé ce mois-ci"
              value={fmt(f.cash.received_month)}
              detail={cashDetail(f.cash, fmt)}
              href={f.cash.source === 'bank' ? '/bank' : undefined}
            />
            <Kpi
              testId="kpi-expenses"
              label="Dépenses ce mois-ci"
              value={expenses.ready ? fmt(expenses.amount) : '…'}
              detail={`${plural(expenses.count, 'dépense', 'dépenses')}, ${fmt(expenses.net)} HT`}
              href="/expenses?period=this_month"
            />
          </div>
          <section className={styles.card} aria-labelledby="chart-title">
            <div className={styles.headingRow}>
              <h2 id="chart-title" className={styles.heading}>
                Chiffre d’affaires HT par mois
              </h2>
              <span className={css({ display: 'flex', gap: '3', alignItems: 'baseline' })}>
                <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{now.getFullYear()}</span>
                <Link href="/reports" className={listStyles.link}>
                  Statistiques détaillées
                </Link>
              </span>
            </div>
            <MonthlyChart values={f.monthly} currentMonth={now.getMonth()} year={now.getFullYear()} format={fmt} currency={f.currency} />
          </section>
          <section className={styles.card} aria-labelledby="latest-title">
            <div className={styles.headingRow}>
              <h2 id="latest-title" className={styles.heading}>
                Derniers documents
              </h2>
              <Link href="/invoices" className={listStyles.link}>
                Toutes les factures
              </Link>
            </div>
            {/* A table on wide screens, cards on a phone: the total and the status stay on screen. */}
            <ResponsiveList
              label="Derniers documents"
              testId="latest-documents"
              rows={f.latest}
              rowKey={(doc) => doc.id}
              onOpen={(doc) => navigate(openHref(doc))}
              columns={documentColumns({ money, type: true, sent: false })}
            />
          </section>
        </>
      )}
    </div>
  );
}

/** Where this month's receipts come from: the bank's confirmed lines (with its stated balance) or the payments typed. */
function cashDetail(
  cash: { source: 'bank' | 'payments'; balance: number | null; balance_date: string | null },
  fmt: (n: number) => string,
): string {
  if (cash.source === 'payments') return 'Paiements enregistrés';
  const balance =
    cash.balance !== null && cash.balance_date ? ` · solde ${fmt(cash.balance)} au ${formatDateShort(cash.balance_date)}` : '';
  return `Relevés bancaires rapprochés${balance}`;
}

function Kpi({
  label,
  value,
  detail,
  alert,
  href,
  testId,
}: {
  label: string;
  value: string;
  detail: string;
  alert?: boolean;
  href?: string;
  testId: string;
}) {
  const body = (
    <>
      <p className={cx(styles.kpiLabel, alert && styles.alert)}>{label}</p>
      <p className={cx(styles.kpiValue, alert && styles.alert)} data-testid={testId}>
        {value}
      </p>
      <p className={styles.kpiDetail}>{detail}</p>
    </>
  );
  const className = cx(
    styles.card,
    alert && styles.alertCard,
    href && css({ display: 'block', transition: 'border-color 0.15s', _hover: { borderColor: 'accent.default' } }),
  );
  return href ? (
    <Link href={href} className={className}>
      {body}
    </Link>
  ) : (
    <section className={className}>{body}</section>
  );
}
