import { useState } from 'react';
import { formatCount, formatRate } from '../../../shared/typography';
import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { type BillingPeriod, formatLimit, type LimitKey, PLAN_RANK, yearlySaving, PLANS } from '../../../shared/plans';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { useCan } from '../../lib/use-can';
import { buttonRecipe } from '../../components/ui/button';
import { CheckCircleIcon } from '../../components/icons';
import { useSubscription } from './usage';

const styles = {
  card: css({ bg: 'bg.surface', borderRadius: 'card', borderWidth: '1px', borderColor: 'border.default', p: { base: '3', md: '6' } }),
  head: css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center', justifyContent: 'space-between', mb: '5' }),
  intro: css({ color: 'fg.muted', fontSize: 'sm', maxW: '60ch' }),
  toggle: css({ display: 'inline-flex', borderWidth: '1px', borderColor: 'border.strong', borderRadius: 'full', p: '1', gap: '1' }),
  toggleButton: css({
    px: '4',
    py: '1.5',
    borderRadius: 'full',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    cursor: 'pointer',
    '&[aria-pressed=true]': { bg: 'accent.solid', color: 'fg.onAccent' },
  }),
  scroller: css({ overflowX: 'auto' }),
  table: css({ w: 'full', borderCollapse: 'separate', borderSpacing: '0', minW: '640px', fontSize: 'sm' }),
  rowHead: css({
    textAlign: 'left',
    fontWeight: '500',
    color: 'fg.muted',
    py: '3',
    pr: '3',
    borderTopWidth: '1px',
    borderColor: 'border.default',
  }),
  cell: css({
    textAlign: 'center',
    py: '3',
    px: '3',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    fontVariantNumeric: 'tabular-nums',
  }),
  current: css({ bg: 'accent.subtle' }),
  planHead: css({ textAlign: 'center', px: '3', pt: '4', pb: '3', verticalAlign: 'top', borderTopRadius: 'lg' }),
  planName: css({ fontSize: 'lg', fontWeight: '700' }),
  tagline: css({ color: 'fg.muted', fontSize: 'xs', mt: '1', minH: '8' }),
  price: css({ fontSize: '2xl', fontWeight: '800', mt: '2' }),
  priceNote: css({ color: 'fg.muted', fontSize: 'xs' }),
  badge: css({
    display: 'inline-block',
    fontSize: 'xs',
    fontWeight: '700',
    color: 'accent.fg',
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'accent.default',
    borderRadius: 'full',
    px: '2',
    py: '0.5',
    mb: '2',
  }),
  yes: css({ color: 'success', display: 'inline-flex' }),
  no: css({ color: 'fg.subtle' }),
  foot: css({ color: 'fg.muted', fontSize: 'xs', mt: '4' }),
};

const LIMIT_ROWS: { key: LimitKey; label: string }[] = [
  { key: 'documents', label: 'Documents créés par mois' },
  { key: 'members', label: 'Membres de l’équipe' },
  { key: 'storage', label: 'Stockage des justificatifs' },
];

/** /pricing, Votre abonnement: the plans side by side, the current one marked, each leading to /buy. */
export function PricingPage() {
  const plans = trpc.plans.list.useQuery(undefined, { staleTime: Infinity });
  const subscription = useSubscription();
  const money = useMoney();
  const isOwner = useCan('subscription.checkout');
  const [period, setPeriod] = useState<BillingPeriod>(subscription.data?.period ?? 'month');
  const current = subscription.data?.plan;
  const list = plans.data?.data ?? [];
  const per = period === 'month' ? '/ mois' : '/ an';
  const yes = (on: boolean) =>
    on ? (
      <span className={styles.yes} role="img" aria-label="Inclus">
        <CheckCircleIcon size={18} />
      </span>
    ) : (
      <span className={styles.no} role="img" aria-label="Non inclus">
        —
      </span>
    );

  return (
    <section className={styles.card} aria-label="Formules">
      <div className={styles.head}>
        <p className={styles.intro}>
          Comparez les formules : les prix sont hors taxes, TVA de {formatRate(plans.data?.vat_rate ?? 20)} en sus. Vous pouvez changer ou
          résilier à tout moment, le changement prend effet à la fin de la période payée.
        </p>
        <fieldset className={styles.toggle}>
          <legend className={css({ srOnly: true })}>Période de facturation</legend>
          <button type="button" className={styles.toggleButton} aria-pressed={period === 'month'} onClick={() => setPeriod('month')}>
            Mensuel
          </button>
          <button type="button" className={styles.toggleButton} aria-pressed={period === 'year'} onClick={() => setPeriod('year')}>
            Annuel · 2 mois offerts
          </button>
        </fieldset>
      </div>
      <div className={styles.scroller}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col" className={css({ w: '28%' })}>
                <span className={css({ srOnly: true })}>Formule</span>
              </th>
              {list.map((plan) => (
                <th key={plan.id} scope="col" className={cx(styles.planHead, plan.id === current && styles.current)} data-plan={plan.id}>
                  {/* Kept in every column, hidden but for the current plan, so that the names line up. */}
                  <div
                    className={styles.badge}
                    style={plan.id === current ? undefined : { visibility: 'hidden' }}
                    aria-hidden={plan.id !== current}
                  >
                    Votre formule
                  </div>
                  <div className={styles.planName}>{plan.name}</div>
                  <div className={styles.tagline}>{plan.tagline}</div>
                  <div className={styles.price}>
                    {money(plan.prices[period].net)} <span className={css({ fontSize: 'sm', fontWeight: '600' })}>HT {per}</span>
                  </div>
                  <div className={styles.priceNote}>
                    {money(plan.prices[period].gross)} TTC {per}
                    {period === 'year' && yearlySaving(PLANS[plan.id]) > 0 && ` · ${money(yearlySaving(PLANS[plan.id]))} d’économie`}
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {LIMIT_ROWS.map((row) => (
              <tr key={row.key}>
                <th scope="row" className={styles.rowHead}>
                  {row.label}
                </th>
                {list.map((plan) => (
                  <td key={plan.id} className={cx(styles.cell, plan.id === current && styles.current)}>
                    {formatLimit(row.key, plan.limits[row.key])}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row" className={styles.rowHead}>
                Factures électroniques par mois
              </th>
              {list.map((plan) => (
                <td key={plan.id} className={cx(styles.cell, plan.id === current && styles.current)}>
                  {plan.einvoices_per_month === null ? 'Illimité' : formatCount(plan.einvoices_per_month)}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className={styles.rowHead}>
                Accès API
              </th>
              {list.map((plan) => (
                <td key={plan.id} className={cx(styles.cell, plan.id === current && styles.current)}>
                  {yes(plan.api)}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className={styles.rowHead}>
                Webhooks
              </th>
              {list.map((plan) => (
                <td key={plan.id} className={cx(styles.cell, plan.id === current && styles.current)}>
                  {yes(plan.webhooks)}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row" className={styles.rowHead}>
                Assistance
              </th>
              {list.map((plan) => (
                <td key={plan.id} className={cx(styles.cell, plan.id === current && styles.current)}>
                  {plan.support}
                </td>
              ))}
            </tr>
            <tr>
              <td />
              {list.map((plan) => (
                <td
                  key={plan.id}
                  className={cx(styles.cell, plan.id === current && styles.current, css({ pb: '4', borderBottomRadius: 'lg' }))}
                >
                  <PlanAction
                    plan={plan.id}
                    current={current}
                    period={period}
                    currentPeriod={subscription.data?.period ?? null}
                    isOwner={isOwner}
                  />
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <p className={styles.foot}>
        {isOwner
          ? 'La formule Gratuit ne demande aucun paiement. Pour y revenir, résiliez votre abonnement dans Paramètres → Gérer mon abonnement.'
          : 'Seul le propriétaire de l’entreprise peut changer de formule.'}
      </p>
    </section>
  );
}

function PlanAction(props: {
  plan: keyof typeof PLANS;
  current: keyof typeof PLANS | undefined;
  period: BillingPeriod;
  currentPeriod: BillingPeriod | null;
  isOwner: boolean;
}) {
  const { plan, current, period, currentPeriod, isOwner } = props;
  if (plan === current && (plan === 'free' || period === currentPeriod)) {
    return <span className={css({ fontWeight: '600', color: 'accent.fg' })}>Formule actuelle</span>;
  }
  if (plan === 'free' || !isOwner) return null;
  const label = current && PLAN_RANK[plan] < PLAN_RANK[current] ? `Passer à ${PLANS[plan].name}` : `Choisir ${PLANS[plan].name}`;
  return (
    <Link href={`/buy?plan=${plan}&period=${period}`} className={buttonRecipe({ size: 'md', block: true })}>
      {label}
    </Link>
  );
}
