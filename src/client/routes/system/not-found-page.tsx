import { Link, useSearch } from 'wouter';
import { css } from '../../../../styled-system/css';
import { buttonRecipe } from '../../components/ui/button';

/** /404 shows the error message from its query; unknown routes land here too. */
export function NotFoundPage() {
  const message = new URLSearchParams(useSearch()).get('message');
  return (
    <main className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '6', textAlign: 'center' })}>
      <div className={css({ maxW: '420px', display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' })}>
        <p className={css({ fontSize: '5xl', fontWeight: '800', color: 'accent.default', lineHeight: '1' })}>404</p>
        <h1 className={css({ fontSize: 'xl', fontWeight: '700' })}>{message ? 'Une erreur est survenue' : 'Page introuvable'}</h1>
        <p className={css({ color: 'fg.muted' })} data-testid="error-message">
          {message ?? 'La page demandée n’existe pas ou a été déplacée.'}
        </p>
        <Link href="/" className={buttonRecipe({ variant: 'solid' })}>
          Retour à l’accueil
        </Link>
      </div>
    </main>
  );
}
