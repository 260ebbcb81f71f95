import { z } from 'zod';
import {
  EMAIL_PLACEHOLDERS,
  EMAIL_TEMPLATE_LABELS,
  EMAIL_TEMPLATE_TYPES,
  unknownPlaceholders,
  type EmailTemplateType,
} from '../email-template';

/** Stands for a stored SMTP password in every answer; sent back unchanged, it means "keep the stored one". */
export const SMTP_PASSWORD_MASK = '********';

/** Why an SMTP override URL is refused, or null. Only scheme, login, host and port: no query (nodemailer would read options from it). */
export function smtpUrlError(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'adresse invalide (ex. smtps://utilisateur:motdepasse@smtp.exemple.fr:465)';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'l’adresse doit commencer par smtp:// ou smtps://';
  if (!url.hostname) return 'le nom du serveur manque (ex. smtps://smtp.exemple.fr:465)';
  if (url.search || url.hash) return 'pas de paramètres après « ? » ou « # » (seuls l’identifiant, le serveur et le port sont lus)';
  if (url.pathname !== '' && url.pathname !== '/') return 'pas de chemin après le nom du serveur';
  return null;
}

const PLACEHOLDER_LIST = EMAIL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ');

/** A subject or body: not blank, placeholders only among the known ones; the message names the field and the type. */
export function templateText(field: string, opts: { max: number; singleLine: boolean }) {
  return z
    .string({ error: `${field} : du texte est attendu` })
    .max(opts.max, `${field} : ${opts.max} caractères au plus`)
    .superRefine((value, ctx) => {
      if (value.trim() === '') ctx.addIssue({ code: 'custom', message: `${field} : ne peut pas être vide` });
      if (opts.singleLine && /[\r\n]/.test(value)) ctx.addIssue({ code: 'custom', message: `${field} : une seule ligne` });
      const unknown = unknownPlaceholders(value);
      if (unknown.length > 0) {
        const what = unknown.length === 1 ? `variable inconnue ${unknown[0]}` : `variables inconnues ${unknown.join(', ')}`;
        ctx.addIssue({ code: 'custom', message: `${field} : ${what}. Variables possibles : ${PLACEHOLDER_LIST}` });
      }
    });
}

const signature = '\n\nCordialement,\n{organization_name}';

export const DEFAULT_EMAIL_TEMPLATES: Record<EmailTemplateType, { subject: string; body: string }> = {
  invoice: {
    subject: 'Facture {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nVeuillez trouver notre facture {document_number} du {date}, d’un montant de {total}, à régler au plus tard le {due_date}.\n\nVous pouvez la consulter et la télécharger ici : {link}\n\nNous vous remercions de votre confiance.${signature}`,
  },
  estimate: {
    subject: 'Devis {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nComme convenu, voici notre devis {document_number} du {date}, d’un montant de {total}, valable jusqu’au {due_date}.\n\nVous pouvez le consulter ici : {link}\n\nNous restons à votre disposition pour toute question.${signature}`,
  },
  proforma: {
    subject: 'Facture proforma {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nVoici notre facture proforma {document_number} du {date}, d’un montant de {total}, valable jusqu’au {due_date}.\n\nVous pouvez la consulter ici : {link}\n\nNous restons à votre disposition pour toute question.${signature}`,
  },
  order: {
    subject: 'Bon de commande {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nVoici le bon de commande {document_number} du {date}, d’un montant de {total}, pour une livraison prévue le {due_date}.\n\nVous pouvez le consulter ici : {link}${signature}`,
  },
  delivery: {
    subject: 'Bon de livraison {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nVoici le bon de livraison {document_number} du {date}, pour une livraison le {due_date}.\n\nVous pouvez le consulter ici : {link}${signature}`,
  },
  credit: {
    subject: 'Avoir {document_number} de {organization_name}',
    body: `Bonjour {customer_name},\n\nVeuillez trouver notre avoir {document_number} du {date}, d’un montant de {total}.\n\nVous pouvez le consulter ici : {link}${signature}`,
  },
  reminder: {
    subject: 'Rappel : facture {document_number} en attente de règlement',
    body: `Bonjour {customer_name},\n\nSauf erreur de notre part, la facture {document_number} du {date}, arrivée à échéance le {due_date}, reste à régler pour un montant de {amount_due}.\n\nVous pouvez la consulter ici : {link}\n\nSi votre règlement est déjà parti, merci de ne pas tenir compte de ce message.${signature}`,
  },
};

function emailTemplateSchema(type: EmailTemplateType) {
  const label = EMAIL_TEMPLATE_LABELS[type];
  const defaults = DEFAULT_EMAIL_TEMPLATES[type];
  return z
    .object({
      subject: templateText(`Objet (${label})`, { max: 200, singleLine: true }).default(defaults.subject).meta({ label: 'Objet' }),
      body: templateText(`Message (${label})`, { max: 5000, singleLine: false }).default(defaults.body).meta({ label: 'Message' }),
    })
    .strict()
    .prefault({});
}

const templatesShape = Object.fromEntries(EMAIL_TEMPLATE_TYPES.map((type) => [type, emailTemplateSchema(type)])) as {
  [T in EmailTemplateType]: ReturnType<typeof emailTemplateSchema>;
};

/**
 * Paramètres → Envoi d'emails of one organisation. Every field has a default, so a row saved by an older version
 * (a template type added since) still reads; `strict` so an unknown field is refused, not silently kept.
 */
export const emailSettingsSchema = z
  .object({
    /** Display name of the From header; empty = the organisation's name. */
    sender_name: z
      .string({ error: 'Nom de l’expéditeur : du texte est attendu' })
      .trim()
      .max(100, 'Nom de l’expéditeur : 100 caractères au plus')
      .refine((v) => !/[\r\n]/.test(v), 'Nom de l’expéditeur : une seule ligne')
      .default('')
      .meta({ label: 'Nom de l’expéditeur' }),
    /**
     * The From address the organisation wants; mail goes out from it only once the link mailed to it was opened
     * (until then, from the previous confirmed address, else the server's). Empty = the server's.
     */
    sender_address: z
      .string({ error: 'Adresse d’expédition : du texte est attendu' })
      .trim()
      .max(254, 'Adresse d’expédition : 254 caractères au plus')
      .refine((v) => v === '' || z.email().safeParse(v).success, 'Adresse d’expédition : adresse e-mail invalide (ex. factures@exemple.fr)')
      .default('')
      .meta({ label: 'Adresse d’expédition' }),
    /** Empty = the e-mail of the company profile (Infos de l'entreprise). */
    reply_to: z
      .string({ error: 'Adresse de réponse : du texte est attendu' })
      .trim()
      .max(254, 'Adresse de réponse : 254 caractères au plus')
      .refine((v) => v === '' || z.email().safeParse(v).success, 'Adresse de réponse : adresse e-mail invalide (ex. contact@exemple.fr)')
      .default('')
      .meta({ label: 'Adresse de réponse' }),
    /** The organisation's own SMTP server; empty = the server's SMTP_URL, or the .eml outbox without one. */
    smtp_url: z
      .string({ error: 'Serveur SMTP : du texte est attendu' })
      .trim()
      .max(500, 'Serveur SMTP : 500 caractères au plus')
      .refine((v) => v === '' || smtpUrlError(v) === null, {
        error: (issue) => `Serveur SMTP : ${smtpUrlError(String(issue.input)) ?? 'adresse invalide'}`,
      })
      .default('')
      .meta({ label: 'Serveur SMTP' }),
    templates: z.object(templatesShape).strict().prefault({}).meta({ label: 'Modèles d’e-mail' }),
  })
  .strict();
export type EmailSettings = z.infer<typeof emailSettingsSchema>;

export const defaultEmailSettings = (): EmailSettings => emailSettingsSchema.parse({});

/**
 * Where the sender address stands: `none` (no address typed, mail goes from the server's), `pending` (its link was
 * mailed and not yet opened; `expired` once its 48 hours passed) or `confirmed`. `in_use` is the From address of
 * the mail sent now: the previous confirmed one while a new one waits.
 */
export const senderStateSchema = z.object({
  address: z.string(),
  status: z.enum(['none', 'pending', 'confirmed']),
  expires_at: z.string().nullable(),
  expired: z.boolean(),
  in_use: z.string(),
});
export type SenderState = z.infer<typeof senderStateSchema>;

/** The mailed confirmation link's token, as the public confirmation takes it. */
export const senderConfirmationInputSchema = z
  .object({
    token: z
      .string({ error: 'Lien de confirmation : le jeton manque' })
      .regex(/^[a-z2-7]{20,100}$/, 'Lien de confirmation : jeton invalide (copiez le lien entier reçu par e-mail)')
      .meta({ label: 'Lien de confirmation' }),
  })
  .strict();
