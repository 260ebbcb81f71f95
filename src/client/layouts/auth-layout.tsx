import { cloneElement, type ReactElement, type ReactNode, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { tooltip } from '../../../styled-system/recipes';
import { display, toggleTheme } from '../stores/display';
import { Button } from '../components/ui/button';
import { lazyPage } from '../lib/lazy-page';
import { LazyBoundary } from '../components/page-loading';
import { HelpIcon, LogoMark, MoonIcon, SunIcon } from '../components/icons';

// The help dialog (and Ark's dialog machinery) is downloaded when first asked for, not with the login page.
const help = lazyPage(
  () => import('../components/help-dialog'),
  (m) => m.HelpDialog,
);

const styles = {
  page: css({ minH: '100dvh', display: 'flex', flexDirection: 'column', bg: 'bg.canvas' }),
  bar: css({
    h: '14',
    px: { base: '4', md: '6' },
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.surface',
  }),
  barTitle: css({ fontWeight: '700', fontSize: 'md', flex: '1' }),
  main: css({
    flex: '1',
    display: 'flex',
    alignItems: { base: 'flex-start', sm: 'center' },
    justifyContent: 'center',
    px: '4',
    py: { base: '8', sm: '10' },
  }),
  card: css({
    w: 'full',
    maxW: '366px',
    bg: 'bg.surface',
    borderRadius: 'card',
    boxShadow: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '6',
    display: 'flex',
    flexDirection: 'column',
    gap: '5',
  }),
  title: css({ fontSize: '2xl', fontWeight: '700', letterSpacing: '-0.01em' }),
  footer: css({ textAlign: 'center', fontSize: 'xs', color: 'fg.subtle', pb: '6' }),
};

/** Auth layout: top bar 'Auth', the page title, theme toggle (tooltip 'Claire'/'Sombre'), help 'Aider', card 366 px. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const snap = useSnapshot(display);
  const [helpOpen, setHelpOpen] = useState(false);
  const [helpWanted, setHelpWanted] = useState(false);
  const nextTheme = snap.theme === 'dark' ? 'Claire' : 'Sombre';
  return (
    <div className={styles.page}>
      <header className={styles.bar}>
        <LogoMark />
        <span className={styles.barTitle}>Auth</span>
        <CssTooltip label={nextTheme}>
          <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={`Thème : passer en ${nextTheme.toLowerCase()}`}>
            {snap.theme === 'dark' ? <SunIcon /> : <MoonIcon />}
          </Button>
        </CssTooltip>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setHelpWanted(true);
            setHelpOpen(true);
          }}
          onPointerEnter={() => void help.preload()}
        >
          <HelpIcon size={18} />
          Aider
        </Button>
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="auth-title">
          <h1 id="auth-title" className={styles.title}>
            {title}
          </h1>
          {children}
        </section>
      </main>
      <p className={styles.footer}>Facturier — facturation conforme pour les petites entreprises</p>
      {helpWanted && (
        <LazyBoundary fallback={null}>
          <help.Component open={helpOpen} onClose={() => setHelpOpen(false)} />
        </LazyBoundary>
      )}
    </div>
  );
}

/**
 * The tooltip of this bar, in CSS alone: the same look as the kit's tooltip (components/ui/tooltip.tsx) below its
 * trigger, without its wrapper or the positioning engine, which would grow the JavaScript the login page downloads.
 */
function CssTooltip({ label, children }: { label: string; children: ReactElement<{ 'aria-describedby'?: string }> }) {
  const id = useId();
  const styles = tooltip({ cssOnly: true });
  return (
    <span className={styles.holder}>
      {cloneElement(children, { 'aria-describedby': id })}
      <span role="tooltip" id={id} className={styles.content}>
        {label}
      </span>
    </span>
  );
}
