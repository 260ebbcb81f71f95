import type { Db } from '../db/connection';
import type { Mailer } from '../mail/mailer';
import { ownerEmails } from '../db/queries/webhooks';
import type { DeliveryRules } from './webhook-delivery';
import { WEBHOOK_RETRY_WINDOW_MS } from './webhook-schedule';

const parisTime = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(iso));

/**
 * Tells every owner of the organisation, by the app's own mailer, that an endpoint was turned off: an integration
 * silently stopped is worse than a mail; the events keep being recorded, and turning it back on sends them.
 */
export function notifyEndpointDisabled(deps: { db: Db; mailer: Mailer; appUrl: string }): NonNullable<DeliveryRules['onDisabled']> {
  return async ({ organizationId, url, failingSince }) => {
    const owners = await ownerEmails(deps.db, { organizationId });
    const days = Math.round(WEBHOOK_RETRY_WINDOW_MS / 86_400_000);
    for (const owner of owners) {
      await deps.mailer.send({
        to: owner.email,
        subject: `[Facturier] Webhook désactivé : ${url.slice(0, 200)}`,
        text: [
          `Bonjour ${owner.first_name},`,
          '',
          `Le webhook ${url} de ${owner.organization} ne répond plus correctement depuis le ${parisTime(failingSince)} : tous les envois ont échoué pendant ${days} jours, il a donc été désactivé.`,
          '',
          'Aucun événement n’est perdu : ceux qui surviennent pendant la désactivation sont conservés et seront envoyés dès que vous le réactiverez.',
          `Corrigez le serveur qui reçoit les événements, puis réactivez le webhook dans Paramètres → API : ${deps.appUrl}/settings/api`,
          '',
          '— Facturier',
        ].join('\n'),
      });
    }
  };
}
