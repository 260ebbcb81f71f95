import { Link, useLocation, useSearch } from 'wouter';
import { formatRate } from '../../../shared/typography';
import { css } from '../../../../styled-system/css';
import { includedText, PERIOD_LABELS, PLANS } from '../../../shared/plans';
import { billingPeriodSchema, planIdSchema } from '../../../shared/schemas/plan';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Button, buttonRecipe } from '../../components/ui/button';
import { useSubscription } from './usage';

const styles = {
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '4', md: '8' },
    maxW: '560px',
    mx: 'auto',
    display: 'flex',
    flexDirection: 'column',
    gap: '5',
  }),
  kicker: css({ fontSize: 'xs', fontWeight: '700', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: '0.06em' }),
  name: css({ fontSize: '2xl', fontWeight: '800' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
  lines: css({ display: 'grid', gridTemplateColumns: '1fr auto', rowGap: '2', fontSize: 'sm', fontVariantNumeric: 'tabular-nums' }),
  total: css({ fontWeight: '800', fontSize: 'lg', borderTopWidth: '1px', borderColor: 'border.default', pt: '2' }),
  includes: css({ display: 'flex', flexWrap: 'wrap', gap: '2' }),
  chip: css({ fontSize: 'xs', fontWeight: '600', bg: 'bg.subtle', borderRadius: 'full', px: '3', py: '1' }),
  actions: css({ display: 'flex', gap: '2', justifyContent: 'flex-end', flexWrap: 'wrap' }),
};

/** /buy, Paiement: what the chosen plan costs (HT, TVA, TTC) and the one button that pays or applies it. */
export function BuyPage() {
  const params = new URLSearchParams(useSearch());
  const plan = planIdSchema.safeParse(params.get('plan'));
  const period = billingPeriodSchema.safeParse(params.get('period') ?? 'month');
  const plans = trpc.plans.list.useQuery(undefined, { staleTime: Infinity });
  const subscription = useSubscription();
  const money = useMoney();
  const isOwner = useCan('subscription.checkout');
  const guard = useActionGuard();
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  const checkout = trpc.subscription.checkout.useMutation({
    onSuccess: (answer) => {
      if (answer.url) {
        window.location.assign(answer.url);
        return;
      }
      showMessage(answer.messages, 200);
      utils.subscription.get.setData(undefined, answer.data);
      navigate('/settings/subscription');
    },
  });

  if (!plan.success || plan.data === 'free' || !period.success) {
    return (
      <section className={styles.card}>
        <p className={styles.name}>Aucune formule choisie</p>
        <p className={styles.muted}>Choisissez d’abord une formule payante dans le comparatif.</p>
        <Link href="/pricing" className={buttonRecipe({})}>
          Voir les formules
        </Link>
      </section>
    );
  }
  const chosen = PLANS[plan.data];
  const price = plans.data?.data.find((p) => p.id === plan.data)?.prices[period.data];
  const viaProvider = subscription.data?.provider === 'stripe';
  const per = period.data === 'month' ? 'par mois' : 'par an';

  return (
    <section className={styles.card} aria-label="Récapitulatif">
      <div>
        <p className={styles.kicker}>Récapitulatif</p>
        <p className={styles.name}>Formule {chosen.name}</p>
        <p className={styles.muted}>
          Abonnement {PERIOD_LABELS[period.data]}, renouvelé automatiquement, résiliable à tout moment (effet à la fin de la période).
        </p>
      </div>
      <div className={styles.includes}>
        <span className={styles.chip}>{includedText('documents', chosen.limits.documents)}</span>
        <span className={styles.chip}>{includedText('members', chosen.limits.members)}</span>
        <span className={styles.chip}>{includedText('storage', chosen.limits.storage)}</span>
        {chosen.api && <span className={styles.chip}>API</span>}
        {chosen.webhooks && <span className={styles.chip}>Webhooks</span>}
      </div>
      {price && (
        <div className={styles.lines}>
          <span>Prix HT {per}</span>
          <span>{money(price.net)}</span>
          <span>TVA {plans.data ? formatRate(plans.data.vat_rate) : ''}</span>
          <span>{money(price.vat)}</span>
          <span className={styles.total}>Total TTC {per}</span>
          <span className={styles.total}>{money(price.gross)}</span>
        </div>
      )}
      <p className={styles.muted}>
        {viaProvider
          ? 'Le paiement se fait sur la page sécurisée de Stripe ; vous revenez ici une fois l’abonnement confirmé.'
          : 'Aucun service de paiement n’est configuré sur ce serveur : la formule s’applique dès maintenant, sans paiement.'}
      </p>
      <div className={styles.actions}>
        <Link href="/pricing" className={buttonRecipe({ variant: 'outline' })}>
          Changer de formule
        </Link>
        {isOwner ? (
          <Button loading={checkout.isPending} onClick={() => guard(() => checkout.mutateAsync({ plan: plan.data, period: period.data }))}>
            {viaProvider ? `Payer ${price ? money(price.gross) : ''}` : `Activer la formule ${chosen.name}`}
          </Button>
        ) : (
          <p className={styles.muted}>Seul le propriétaire de l’entreprise peut s’abonner.</p>
        )}
      </div>
    </section>
  );
}
