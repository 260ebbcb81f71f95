import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { display } from '../stores/display';
import { ui } from '../stores/ui';
import { useIsWide } from '../lib/use-media-query';
import { useFullscreen } from '../lib/use-fullscreen';
import { Button, buttonRecipe } from '../components/ui/button';
import { Tooltip } from '../components/ui/tooltip';
import { HelpIcon, MaximizeIcon, MenuIcon, MinimizeIcon, SearchIcon, SlidersIcon, SparkIcon } from '../components/icons';
import { DRAWER_WIDTH, RAIL_WIDTH, SideDrawer } from './side-drawer';

const styles = {
  bar: css({
    position: 'sticky',
    top: '0',
    zIndex: 'sticky',
    h: '16',
    px: { base: '3', md: '6' },
    display: 'flex',
    alignItems: 'center',
    gap: { base: '1', md: '2' },
    bg: 'bg.surface',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  }),
  titles: css({ flex: '1', minW: '0', ml: '1' }),
  title: css({ fontSize: 'lg', fontWeight: '700', lineHeight: '1.2', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
  subtitle: css({ fontSize: 'xs', color: 'fg.muted', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
  content: css({ p: { base: '4', md: '6' }, maxW: '1200px', mx: 'auto', w: 'full' }),
};

function BarButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={label}>
      <Button variant="ghost" size="icon" onClick={onClick} aria-label={label}>
        {children}
      </Button>
    </Tooltip>
  );
}

/** SPEC §2 main layout: the navigation drawer, the top bar with page title and subtitle, and the page. */
export function MainLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const snap = useSnapshot(display);
  const wide = useIsWide();
  const fullscreen = useFullscreen();
  const offset = wide ? (snap.rail ? RAIL_WIDTH : DRAWER_WIDTH) : 0;
  const fullscreenLabel = fullscreen.active ? 'Quitter le mode plein écran' : 'Passer en mode plein écran';
  // Keyboard (issue 23, listed in « Aide »): Ctrl/Cmd+K opens the search from anywhere in the app.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        ui.search = true;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className={css({ minH: '100dvh' })}>
      <SideDrawer wide={wide} />
      <div
        style={{ marginLeft: offset }}
        className={css({ transition: 'margin-left 0.2s', display: 'flex', flexDirection: 'column', minH: '100dvh' })}
      >
        <header className={styles.bar}>
          {!wide && (
            <BarButton
              label="Ouvrir le menu"
              onClick={() => {
                display.drawer = true;
                display.rail = false; // SPEC §4: opening on a narrow screen turns rail mode off
              }}
            >
              <MenuIcon />
            </BarButton>
          )}
          <div className={styles.titles}>
            <h1 className={styles.title}>{title}</h1>
            {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
          </div>
          {wide ? (
            <Link href="/pricing" className={buttonRecipe({ size: 'sm' })}>
              S'abonner Maintenant
            </Link>
          ) : (
            <Tooltip label="S'abonner Maintenant">
              <Link href="/pricing" className={buttonRecipe({ size: 'icon' })} aria-label="S'abonner Maintenant">
                <SparkIcon size={18} />
              </Link>
            </Tooltip>
          )}
          <BarButton label="Rechercher" onClick={() => (ui.search = true)}>
            <SearchIcon />
          </BarButton>
          <BarButton label="Aide" onClick={() => (ui.help = true)}>
            <HelpIcon />
          </BarButton>
          <BarButton label="Paramètre Application" onClick={() => (ui.settingsPanel = true)}>
            <SlidersIcon />
          </BarButton>
          {wide && (
            <BarButton label={fullscreenLabel} onClick={fullscreen.toggle}>
              {fullscreen.active ? <MinimizeIcon /> : <MaximizeIcon />}
            </BarButton>
          )}
        </header>
        <main className={styles.content}>{children}</main>
      </div>
    </div>
  );
}
