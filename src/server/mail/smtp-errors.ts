import { OutboundRefusedError } from '../net/outbound-guard';

/** nodemailer's error codes, as a French sentence that says what to check (its own text is English and technical). */
export function smtpFailureMessage(error: unknown, host: string): string {
  if (error instanceof OutboundRefusedError) return error.message;
  const { code, responseCode } = (error ?? {}) as { code?: string; responseCode?: number };
  const server = `Le serveur SMTP ${host}`;
  const scheme = 'smtps:// (port 465) ou smtp:// (port 587)';
  switch (code) {
    case 'EAUTH':
    case 'ENOAUTH':
      return `${server} a refusé l’identifiant ou le mot de passe : vérifiez-les dans l’adresse du serveur SMTP`;
    case 'EDNS':
      return `${server} est introuvable : vérifiez son nom`;
    case 'ECONNECTION':
    case 'ESOCKET':
      return `${server} ne répond pas : vérifiez son nom, le port et le choix entre ${scheme}`;
    case 'ETIMEDOUT':
      return `${server} n’a pas répondu à temps : vérifiez le port et le choix entre ${scheme}`;
    case 'ETLS':
      return `La connexion chiffrée avec ${host} a échoué : essayez ${scheme}`;
    case 'EENVELOPE':
      return `${server} a refusé l’expéditeur ou le destinataire${responseCode ? ` (code ${responseCode})` : ''} : vérifiez que ce serveur accepte d’envoyer au nom de cette adresse`;
    default:
      return `${server} a refusé le message${responseCode ? ` (code ${responseCode})` : ''}`;
  }
}
