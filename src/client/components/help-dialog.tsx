import { css } from '../../../styled-system/css';
import { Dialog } from './ui/dialog';
import { Button } from './ui/button';

const item = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  '& h3': { fontWeight: '700', fontSize: 'sm' },
  '& p': { fontSize: 'sm', color: 'fg.muted', lineHeight: '1.5' },
});

const TOPICS = {
  app: [
    [
      'Naviguer',
      'Le menu de gauche mène à chaque espace. Sur grand écran, « Replier le menu » le réduit à ses icônes ; survolez-les pour leur nom.',
    ],
    [
      'Affichage',
      'Le bouton « Paramètre Application » règle le thème (clair, sombre ou celui du système), la taille du texte et la police.',
    ],
    [
      'Un problème, une idée ?',
      'Dans « Paramètre Application », « Signaler ou suggérer » nous envoie votre message, avec une capture d’écran si vous le souhaitez.',
    ],
  ],
} as const;

/** The help buttons' answers: before login (auth layout) or inside the app. */
export function HelpDialog({ open, onClose, topic = 'auth' }: { open: boolean; onClose: () => void; topic?: 'auth' | 'app' }) {
  if (topic === 'app') {
    return (
      <Dialog open={open} onClose={onClose} title="Aide" footer={<Button onClick={onClose}>Compris</Button>} screenshotHidden>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', pb: '2' })}>
          {TOPICS.app.map(([title, text]) => (
            <div key={title} className={item}>
              <h3>{title}</h3>
              <p>{text}</p>
            </div>
          ))}
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog open={open} onClose={onClose} title="Aide" footer={<Button onClick={onClose}>Compris</Button>}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', pb: '2' })}>
        <div className={item}>
          <h3>Première visite ?</h3>
          <p>
            Choisissez « Inscription » : votre compte et celui de votre entreprise sont créés ensemble, et vous êtes connecté(e) aussitôt.
          </p>
        </div>
        <div className={item}>
          <h3>Mot de passe oublié</h3>
          <p>
            Indiquez votre adresse e-mail : vous recevez un lien valable une heure pour en choisir un nouveau. Vos autres sessions sont
            alors fermées.
          </p>
        </div>
        <div className={item}>
          <h3>Trop de tentatives</h3>
          <p>Après plusieurs mots de passe erronés, la connexion est suspendue 15 minutes pour protéger votre compte.</p>
        </div>
      </div>
    </Dialog>
  );
}
