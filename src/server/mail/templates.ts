import type { OutgoingMail } from './mailer';
import { deName } from '../../shared/french';

export function verifyEmailMail(params: { to: string; firstName: string; link: string }): OutgoingMail {
  return {
    to: params.to,
    subject: 'Activez votre compte Facturier',
    text: [
      `Bonjour ${params.firstName},`,
      '',
      'Bienvenue sur Facturier. Pour activer votre compte, ouvrez ce lien :',
      params.link,
      '',
      'Ce lien est valable 48 heures. Si vous n’avez pas créé de compte, ignorez ce message.',
    ].join('\n'),
  };
}

export function resetPasswordMail(params: { to: string; firstName: string; link: string }): OutgoingMail {
  return {
    to: params.to,
    subject: 'Réinitialisation de votre mot de passe Facturier',
    text: [
      `Bonjour ${params.firstName},`,
      '',
      'Vous avez demandé à changer votre mot de passe. Pour en choisir un nouveau, ouvrez ce lien :',
      params.link,
      '',
      'Ce lien est valable 1 heure et ne sert qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
    ].join('\n'),
  };
}

export function invitationMail(params: { to: string; inviter: string; organization: string; role: string; link: string }): OutgoingMail {
  return {
    to: params.to,
    subject: `${params.inviter} vous invite à rejoindre ${params.organization} sur Facturier`,
    text: [
      'Bonjour,',
      '',
      `${params.inviter} vous invite à rejoindre l’équipe ${deName(params.organization)} sur Facturier, avec le rôle ${params.role}.`,
      'Pour accepter, ouvrez ce lien :',
      params.link,
      '',
      'Ce lien est valable 7 jours et ne sert qu’une fois. Si vous ne connaissez pas cette entreprise, ignorez ce message.',
    ].join('\n'),
  };
}
