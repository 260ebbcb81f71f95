import { z } from 'zod';

/** Recipients of one mail at most, per field: a customer, its contacts, an accountant. */
const MAX_RECIPIENTS = 20;

const singleEmail = z.email();

/**
 * A list of addresses, typed as one text ("a@x.fr, b@y.fr", or ';' between them) or sent as an array; each is checked,
 * and the message names the field and the address refused.
 */
function recipients(field: string, opts: { required: boolean }) {
  return z
    .union([z.string(), z.array(z.string().max(254))], { error: `${field} : une adresse e-mail ou une liste d’adresses est attendue` })
    .transform((value) => (Array.isArray(value) ? value : value.split(/[,;]/)).map((a) => a.trim()).filter((a) => a !== ''))
    .superRefine((list, ctx) => {
      if (opts.required && list.length === 0)
        ctx.addIssue({ code: 'custom', message: `${field} : indiquez au moins une adresse e-mail (ex. client@exemple.fr)` });
      if (list.length > MAX_RECIPIENTS) ctx.addIssue({ code: 'custom', message: `${field} : ${MAX_RECIPIENTS} adresses au plus` });
      for (const address of list) {
        if (address.length > 254 || !singleEmail.safeParse(address).success)
          ctx.addIssue({
            code: 'custom',
            message: `${field} : adresse e-mail invalide « ${address.slice(0, 80)} » (ex. client@exemple.fr)`,
          });
      }
    })
    .transform((list) => [...new Set(list.map((a) => a.toLowerCase()))]);
}

/**
 * POST /api/documents/{id}/send. Subject and message left out (or blank) are the organisation's template for the
 * document's type (Paramètres → Envoi d'emails), filled with the document's values.
 */
export const sendDocumentInputSchema = z.object({
  to: recipients('Destinataire', { required: true }).meta({ label: 'Destinataire' }),
  cc: recipients('Copie', { required: false }).optional().meta({ label: 'Copie' }),
  subject: z
    .string({ error: 'Objet : du texte est attendu' })
    .trim()
    .max(200, 'Objet : 200 caractères au plus')
    .refine((v) => !/[\r\n]/.test(v), 'Objet : une seule ligne')
    .optional()
    .meta({ label: 'Objet' }),
  message: z
    .string({ error: 'Message : du texte est attendu' })
    .max(10_000, 'Message : 10 000 caractères au plus')
    .optional()
    .meta({ label: 'Message' }),
});
/** As parsed: addresses in lists, lower-cased, without duplicates. */
export type SendDocumentInput = z.output<typeof sendDocumentInputSchema>;

/** What the send dialog opens with: the template filled in, the customer's address and its contacts to pick from. */
export const mailDraftSchema = z.object({
  to: z.string(),
  contacts: z.array(z.object({ name: z.string(), role: z.string(), email: z.string() })),
  subject: z.string(),
  message: z.string(),
  attachment: z.string(),
  link: z.string(),
});
export type MailDraft = z.infer<typeof mailDraftSchema>;

/** POST /api/share/{uuid}/accept: the signer's name, and the "Bon pour accord" tick (the page always sends it). */
export const acceptQuoteInputSchema = z.object({
  name: z
    .string({ error: 'Nom du signataire : obligatoire' })
    .trim()
    .min(2, 'Nom du signataire : indiquez vos prénom et nom')
    .max(120, 'Nom du signataire : 120 caractères au plus')
    .refine((v) => !/[\r\n]/.test(v), 'Nom du signataire : une seule ligne')
    .meta({ label: 'Nom du signataire' }),
  bon_pour_accord: z
    .boolean({ error: 'Bon pour accord : vrai ou faux est attendu' })
    .optional()
    .refine((v) => v !== false, 'Bon pour accord : cochez la case pour accepter le devis')
    .meta({ label: 'Bon pour accord' }),
});

/** POST /api/share/{uuid}/refuse: why. */
export const refuseQuoteInputSchema = z.object({
  reason: z
    .string({ error: 'Motif du refus : obligatoire' })
    .trim()
    .min(1, 'Motif du refus : dites en quelques mots pourquoi')
    .max(2000, 'Motif du refus : 2 000 caractères au plus')
    .meta({ label: 'Motif du refus' }),
});

/** An estimate's answer given online, as the app shows it. */
export const quoteResponseSchema = z.object({
  decision: z.enum(['accepted', 'refused']),
  name: z.string(),
  reason: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  created_at: z.string(),
});
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;
