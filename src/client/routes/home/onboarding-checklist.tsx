import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { CheckIcon } from '../../components/icons';
import { plural } from '../../../shared/french';
import type { Procedure } from '../../lib/procedure-rules';
import { useCanCall } from '../../lib/use-can';

const styles = {
  list: css({ display: 'flex', flexDirection: 'column', gap: '1', mt: '3' }),
  step: css({
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    gap: '3',
    py: '2',
    px: '2',
    borderRadius: 'lg',
    fontSize: 'sm',
    _hover: { bg: 'bg.subtle' },
  }),
  mark: css({
    display: 'grid',
    placeItems: 'center',
    w: '6',
    h: '6',
    borderRadius: 'full',
    borderWidth: '2px',
    borderColor: 'border.strong',
    color: 'transparent',
    flexShrink: 0,
  }),
  done: css({ bg: 'success', borderColor: 'success', color: 'white' }),
  doneText: css({ color: 'fg.muted', textDecoration: 'line-through' }),
  hint: css({ color: 'fg.muted', fontSize: 'xs' }),
  go: css({ color: 'accent.fg', fontWeight: '700', whiteSpace: 'nowrap' }),
  bar: css({ h: '1.5', borderRadius: 'full', bg: 'bg.subtle', overflow: 'hidden', mt: '2' }),
};

/**
 * An empty organisation: the five steps to a first invoice sent, each ticked from what is really there, and
 * the card gone once all five are done. Read with the queries the pages already use (nothing of its own to store).
 */
export function OnboardingChecklist({ className }: { className?: string }) {
  const silent = { meta: { silent: true }, staleTime: 0 } as const;
  const org = trpc.organization.get.useQuery(undefined, silent);
  const customers = trpc.customers.list.useQuery({ per_page: 1, archived: 'include' }, silent);
  const invoices = trpc.documents.list.useQuery({ type: 'invoice', per_page: 1 }, silent);
  const mail = trpc.emailSettings.get.useQuery(undefined, silent);
  const can = useCanCall();
  if (!org.data || !customers.data || !invoices.data || !mail.data) return null;
  const o = org.data;
  const all: { label: string; hint: string; done: boolean; href: string; needs: Procedure }[] = [
    {
      label: 'Compléter l’identité de l’entreprise',
      hint: 'Nom, SIRET et adresse : la loi les exige sur chaque facture.',
      done: Boolean(o.name && o.siret && o.address.line1 && o.address.postal_code && o.address.city),
      href: '/settings/organization',
      needs: 'organization.update',
    },
    {
      label: 'Ajouter votre logo',
      hint: 'Il s’imprime en tête de vos documents.',
      done: Boolean(o.logo_url),
      href: '/settings/organization',
      needs: 'organization.update',
    },
    {
      label: 'Créer un premier client',
      hint: 'Avec son adresse de facturation.',
      done: customers.data.total > 0,
      href: '/customers',
      needs: 'customers.create',
    },
    {
      label: 'Établir une première facture',
      hint: 'Puis l’émettre : elle reçoit son numéro.',
      done: invoices.data.total > 0,
      href: '/invoices/new/add',
      needs: 'documents.create',
    },
    {
      label: 'Régler l’envoi des e-mails',
      hint: 'Adresse de réponse ou serveur d’envoi, pour envoyer vos factures.',
      done: Boolean(mail.data.reply_to || mail.data.smtp_url),
      href: '/settings/email',
      needs: 'emailSettings.update',
    },
  ];
  // A member is shown only the steps their role can do: « Commencer » never leads to a page that refuses them.
  const steps = all.filter((s) => can(s.needs));
  if (steps.length === 0) return null;
  const count = steps.filter((s) => s.done).length;
  if (count === steps.length) return null;
  return (
    <section className={className} aria-labelledby="onboarding-title" data-testid="onboarding-checklist">
      <h2 id="onboarding-title" className={css({ fontSize: 'lg', fontWeight: '700' })}>
        Bien démarrer
      </h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
        {plural(count, 'étape faite', 'étapes faites')} sur {steps.length} : cette liste disparaît une fois tout fait.
      </p>
      <div className={styles.bar} aria-hidden="true">
        <div className={css({ h: 'full', bg: 'success' })} style={{ width: `${(count / steps.length) * 100}%` }} />
      </div>
      <ol className={styles.list}>
        {steps.map((s) => (
          <li key={s.label} className={styles.step} data-done={s.done || undefined}>
            <span className={cx(styles.mark, s.done && styles.done)} role="img" aria-label={s.done ? 'Fait' : 'À faire'}>
              <CheckIcon size={14} />
            </span>
            <span>
              <span className={cx(css({ fontWeight: '600' }), s.done && styles.doneText)}>{s.label}</span>
              {!s.done && <span className={cx(styles.hint, css({ display: 'block' }))}>{s.hint}</span>}
            </span>
            {!s.done && (
              <Link href={s.href} className={styles.go}>
                Commencer
              </Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
