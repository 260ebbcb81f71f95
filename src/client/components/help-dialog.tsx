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
      'Un problème, une idée ?',
      'Dans « Paramètre Application », « Signaler ou suggérer » nous envoie votre message, avec une capture d’écran si vous le souhaitez.',
    ],
  ],
} as const;

/** From an empty organisation to a first invoice sent, in the order the app asks for it. */
const FIRST_INVOICE: [string, string][] = [
  ['Votre entreprise', 'Paramètres → Infos de l’entreprise : nom, forme juridique, SIRET, adresse, n° de TVA (et votre logo).'],
  ['Votre client', 'Clients → « Nouveau client » : son nom, son adresse de facturation, et son SIREN si c’est une entreprise.'],
  ['La facture', 'Documents → « Nouvelle facture » : choisissez le client, ajoutez les lignes ; elle reste un brouillon modifiable.'],
  ['L’émission', '« Émettre » vérifie d’abord les mentions obligatoires, puis donne le numéro définitif : la facture ne se modifie plus.'],
  ['L’envoi', '« Envoyer par e-mail » depuis son aperçu, avec le PDF joint ; réglez l’expéditeur dans Paramètres → Envoi d’emails.'],
];

/** What the app prints for the law, so the user knows what to fill in (CGI art. 242 nonies A, C. com. L441-9/L441-10). */
const LEGAL_MENTIONS =
  'Chaque facture porte un numéro unique et chronologique, les dates d’émission et d’échéance, l’identité et le SIREN des deux parties, ' +
  'le n° de TVA, le détail HT, la TVA par taux et le TTC, les pénalités de retard et l’indemnité forfaitaire de 40 € pour frais de ' +
  'recouvrement. Facturier les ajoute pour vous : il vous demande seulement ce qui manque avant d’émettre. Une facture émise se ' +
  'corrige par un avoir.';

const SHORTCUTS: [string, string][] = [
  ['Ctrl + K', 'Ouvrir la recherche'],
  ['↓ ↑ puis Entrée', 'Parcourir les résultats et ouvrir celui choisi'],
  ['Échap', 'Fermer la recherche ou une fenêtre'],
  ['Ctrl + S', 'Enregistrer le document en cours'],
  ['Entrée', 'Dans la dernière ligne d’un document : ajouter une ligne'],
];

const section = css({ display: 'flex', flexDirection: 'column', gap: '2', '& > h3': { fontWeight: '700', fontSize: 'sm' } });
const muted = css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.5' });
const kbd = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  fontWeight: '700',
  px: '1.5',
  py: '0.5',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  whiteSpace: 'nowrap',
});

/** The help buttons' answers: before login (auth layout) or inside the app. */
export function HelpDialog({ open, onClose, topic = 'auth' }: { open: boolean; onClose: () => void; topic?: 'auth' | 'app' }) {
  if (topic === 'app') {
    return (
      <Dialog open={open} onClose={onClose} title="Aide" width={560} footer={<Button onClick={onClose}>Compris</Button>} screenshotHidden>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '5', pb: '2' })}>
          <section className={section}>
            <h3>Votre première facture</h3>
            <ol className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', listStyle: 'decimal', pl: '5' })}>
              {FIRST_INVOICE.map(([title, text]) => (
                <li key={title} className={muted}>
                  <strong className={css({ color: 'fg.default' })}>{title}</strong> — {text}
                </li>
              ))}
            </ol>
          </section>
          <section className={section}>
            <h3>Les mentions légales</h3>
            <p className={muted}>{LEGAL_MENTIONS}</p>
          </section>
          <section className={section}>
            <h3>Raccourcis clavier</h3>
            <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2', alignItems: 'center' })}>
              {SHORTCUTS.map(([keys, what]) => (
                <div key={keys} className={css({ display: 'contents' })}>
                  <dt>
                    <kbd className={kbd}>{keys}</kbd>
                  </dt>
                  <dd className={muted}>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
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
          <h3>Première visite ?</h3>
          <p>
            Choisissez « Inscription » : votre compte et celui de votre entreprise sont créés ensemble, et vous êtes connecté(e) aussitôt.
          </p>
        </div>
        <div className={item}>
          <h3>Mot de passe oublié</h3>
          <p>
            Indiquez votre adresse e-mail : vous recevez un lien valable une heure pour en choisir un nouveau. Vos autres sessions sont
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
