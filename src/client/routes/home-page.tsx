import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';

const card = css({ bg: 'bg.surface', borderRadius: 'card', borderWidth: '1px', borderColor: 'border.default', boxShadow: 'card', p: '6' });

/** Vue d'ensemble. Its figures come with the sales documents; until then it says so rather than show invented ones. */
export function HomePage() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <section className={card}>
        <h2 className={css({ fontSize: 'xl', fontWeight: '700' })}>Bonjour {me.data?.first_name}</h2>
        <p className={css({ color: 'fg.muted', mt: '1' })}>Bienvenue dans l’espace de {me.data?.organization.name}.</p>
      </section>
      <section className={card}>
        <h2 className={css({ fontSize: 'md', fontWeight: '700' })}>Chiffre d’affaires, encours, retards</h2>
        <p className={css({ color: 'fg.muted', mt: '1', fontSize: 'sm' })}>
          Ces indicateurs apparaîtront ici dès que les documents de vente seront disponibles dans une prochaine version.
        </p>
      </section>
    </div>
  );
}
