import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { formatDateLong } from '../../../shared/format';
import { PERIOD_LABELS, PLANS } from '../../../shared/plans';
import type { Subscription } from '../../../shared/schemas/subscription';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { useActionGuard } from '../../lib/use-action-guard';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button, buttonRecipe } from '../../components/ui/button';
import { NEAR_LIMIT, usageText, useSubscription } from '../subscription/usage';
import { settingsListStyles } from './settings-list-styles';
import { SettingsFrame, settingsCard, settingsSection } from './settings-frame';
import { DormantFeatures, PendingPlanChange } from './pending-plan-change';

const styles = {
  ...settingsListStyles,
  stack: css({ display: 'flex', flexDirection: 'column', gap: '5' }),
  summary: css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'flex-start', justifyContent: 'space-between' }),
  plan: css({ fontSize: '2xl', fontWeight: '800' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap' }),
  notice: css({ fontSize: 'sm', borderRadius: 'lg', px: '3', py: '2', mt: '2' }),
  meters: css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' } }),
  meterLabel: css({ fontSize: 'sm', mb: '1.5' }),
  track: css({ h: '2', borderRadius: 'full', bg: 'bg.muted', overflow: 'hidden' }),
  bar: css({
    h: 'full',
    borderRadius: 'full',
    bg: 'accent.default',
    '&[data-near=true]': { bg: 'warning' },
    '&[data-full=true]': { bg: 'danger' },
  }),
  invoiceRow: cx(settingsListStyles.row, css({ gridTemplateColumns: { base: '1fr', md: '1fr 140px 120px 110px' } })),
  amount: css({ fontVariantNumeric: 'tabular-nums', textAlign: { md: 'right' } }),
};

const STATUS_LABELS: Record<Subscription['status'], string> = { active: 'Actif', past_due: 'Paiement en attente', canceled: 'Terminé' };

function periodLine(s: Subscription): string {
  if (s.plan === 'free') return 'Formule gratuite, sans engagement ni paiement.';
  const end = s.current_period_end ? formatDateLong(s.current_period_end) : null;
  if (s.source === 'operator') return end ? `Formule accordée jusqu’au ${end} inclus.` : 'Formule accordée.';
  const period = s.period ? `Abonnement ${PERIOD_LABELS[s.period]}` : 'Abonnement';
  if (!end) return `${period}.`;
  return s.cancel_at_period_end ? `${period} résilié : se termine le ${end}.` : `${period} : prochain renouvellement le ${end}.`;
}

/** Paramètres → Gérer mon abonnement: the plan, its period and usage, changing or cancelling, its invoices. */
export function SubscriptionSettingsPage() {
  const subscription = useSubscription();
  const isOwner = useCan('subscription.checkout');
  const invoices = trpc.subscription.invoices.useQuery();
  const utils = trpc.useUtils();
  const money = useMoney();
  const guard = useActionGuard();
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.subscription.invalidate();
  };
  const cancel = trpc.subscription.cancel.useMutation({ onSuccess: done });
  const resume = trpc.subscription.resume.useMutation({ onSuccess: done });
  const keep = trpc.subscription.cancelChange.useMutation({ onSuccess: done });
  const s = subscription.data;

  return (
    <SettingsFrame>
      <div className={styles.stack}>
        <section className={settingsCard} aria-label="Formule">
          <p className={settingsSection}>Votre formule</p>
          {s && (
            <div className={styles.summary}>
              <div>
                <p className={styles.plan}>
                  {s.plan_name}
                  <span className={styles.badge}>{s.cancel_at_period_end ? 'Résilié' : STATUS_LABELS[s.status]}</span>
                </p>
                <p className={styles.muted}>{periodLine(s)}</p>
                <PendingPlanChange
                  subscription={s}
                  isOwner={isOwner}
                  keeping={keep.isPending}
                  onKeep={() => guard(() => keep.mutateAsync())}
                />
                <DormantFeatures subscription={s} />
                {s.status === 'past_due' && (
                  <p className={cx(styles.notice, css({ bg: 'warningSubtle', color: 'warning' }))}>
                    Le dernier paiement a échoué : mettez à jour votre moyen de paiement pour garder votre formule.
                  </p>
                )}
                {!s.limits_enforced && <p className={styles.muted}>Les limites des formules sont levées sur ce serveur.</p>}
              </div>
              {isOwner ? (
                <div className={styles.actions}>
                  <Link href="/pricing" className={buttonRecipe({ variant: s.plan === 'free' ? 'solid' : 'outline' })}>
                    {s.plan === 'free' ? 'Choisir une formule' : 'Changer de formule'}
                  </Link>
                  {s.plan !== 'free' &&
                    (s.cancel_at_period_end ? (
                      <Button variant="outline" loading={resume.isPending} onClick={() => guard(() => resume.mutateAsync())}>
                        Reprendre l’abonnement
                      </Button>
                    ) : (
                      <Button
                        variant="ghost"
                        loading={cancel.isPending}
                        onClick={async () => {
                          const end = s.current_period_end ? ` le ${formatDateLong(s.current_period_end)}` : '';
                          if (
                            await confirm(
                              `Résilier l’abonnement ? La formule ${s.plan_name} reste active jusqu’à la fin de la période payée${end}.`,
                              { title: 'Résilier' },
                            )
                          )
                            await guard(() => cancel.mutateAsync());
                        }}
                      >
                        Résilier
                      </Button>
                    ))}
                </div>
              ) : (
                <p className={styles.muted}>Seul le propriétaire de l’entreprise gère l’abonnement.</p>
              )}
            </div>
          )}
        </section>

        <section className={settingsCard} aria-label="Utilisation">
          <p className={settingsSection}>Utilisation</p>
          <div className={styles.meters}>
            {s?.usage.map((u) => {
              const share = u.limit ? Math.min(1, u.used / u.limit) : 0;
              return (
                <div key={u.key} data-testid={`usage-${u.key}`}>
                  <p className={styles.meterLabel}>{usageText(u.key, u.used, s.limits_enforced ? u.limit : null)}</p>
                  <div className={styles.track} aria-hidden="true">
                    <div
                      className={styles.bar}
                      data-near={share >= NEAR_LIMIT}
                      data-full={share >= 1}
                      style={{ width: `${u.limit === null || !s.limits_enforced ? 0 : Math.max(share * 100, u.used > 0 ? 2 : 0)}%` }}
                    />
                  </div>
                </div>
              );
            })}
          </div>
        </section>

        <section className={settingsCard} aria-label="Factures de l’abonnement">
          <p className={settingsSection}>Factures de l’abonnement</p>
          {invoices.data?.total === 0 && (
            <p className={styles.muted}>Aucune facture pour l’instant : elles apparaissent ici après chaque paiement.</p>
          )}
          <ul>
            {invoices.data?.data.map((invoice) => (
              <li key={invoice.id} className={styles.invoiceRow}>
                <div>
                  <span className={styles.name}>{invoice.number}</span>
                  <div className={styles.muted}>
                    {formatDateLong(invoice.date)} · formule {PLANS[invoice.plan].name}, {PERIOD_LABELS[invoice.period]}
                  </div>
                </div>
                <span className={styles.amount}>{money(invoice.amount_total, invoice.currency)} TTC</span>
                <span className={styles.muted}>
                  {invoice.status === 'paid' ? 'Payée' : invoice.status === 'failed' ? 'Paiement échoué' : 'En attente'}
                </span>
                {invoice.pdf_url ? (
                  <a href={invoice.pdf_url} target="_blank" rel="noreferrer" className={buttonRecipe({ variant: 'ghost', size: 'sm' })}>
                    Télécharger
                  </a>
                ) : (
                  <span />
                )}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </SettingsFrame>
  );
}
