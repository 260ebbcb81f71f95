import { css } from '../../../styled-system/css';
import { SparkIcon } from '../components/icons';

/** A route that exists with its title, whose capability is not built yet: it says so, and shows no invented data. */
export function UpcomingPage({ feature }: { feature: string }) {
  return (
    <section
      className={css({
        bg: 'bg.surface',
        borderRadius: 'card',
        borderWidth: '1px',
        borderColor: 'border.default',
        p: { base: '6', md: '10' },
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: '3',
      })}
    >
      <span
        className={css({
          w: '12',
          h: '12',
          borderRadius: 'full',
          bg: 'accent.subtle',
          color: 'accent.fg',
          display: 'grid',
          placeItems: 'center',
        })}
      >
        <SparkIcon size={24} />
      </span>
      <h2 className={css({ fontSize: 'lg', fontWeight: '700' })}>Bientôt disponible</h2>
      <p className={css({ color: 'fg.muted', maxW: '480px', lineHeight: '1.6' })}>
        {feature} : cette partie de Facturier arrive dans une prochaine version. D’ici là, cette page reste vide.
      </p>
    </section>
  );
}
