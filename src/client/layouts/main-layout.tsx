import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { display } from '../stores/display';
import { ui } from '../stores/ui';
import { useIsWide } from '../lib/use-media-query';
import { useFullscreen } from '../lib/use-fullscreen';
import { usePrefetchWhenIdle } from '../lib/prefetch';
import { Button, buttonRecipe } from '../components/ui/button';
import { Tooltip } from '../components/ui/tooltip';
import { HelpIcon, MaximizeIcon, MenuIcon, MinimizeIcon, SearchIcon, SlidersIcon, SparkIcon } from '../components/icons';
import type { Procedure } from '../lib/procedure-rules';
import { RoleGate } from '../components/role-gate';
import { DRAWER_WIDTH, RAIL_WIDTH, SideDrawer } from './side-drawer';
import { LimitBanner } from '../routes/subscription/limit-banner';
import { useSubscription } from '../routes/subscription/usage';

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

/** The pages most sessions open after the dashboard, downloaded when the browser is idle. */
const LIKELY_NEXT = ['/', '/invoices', '/invoices/new/add'] as const;

/** Main layout: the navigation drawer, the top bar with page title and subtitle, and the page. */
/** `can`: the procedure the page is for; a role that may not call it sees « Vous n’avez pas accès à cette page » instead. */
export function MainLayout({ title, subtitle, can, children }: { title: string; subtitle?: string; can?: Procedure; children: ReactNode }) {
  const snap = useSnapshot(display);
  const wide = useIsWide();
  const fullscreen = useFullscreen();
  const offset = wide ? (snap.rail ? RAIL_WIDTH : DRAWER_WIDTH) : 0;
  useEffect(() => {
    ui.shellShown = true; // the search, help, settings and confirm overlays download when idle (app.tsx)
  }, []);
  usePrefetchWhenIdle(LIKELY_NEXT);
  // Once subscribed, the button names the plan instead of inviting to subscribe.
  const plan = useSubscription().data;
  const subscribed = plan !== undefined && plan.plan !== 'free';
  const subscribeLabel = subscribed ? `Formule ${plan.plan_name}` : "S'abonner Maintenant";
  const fullscreenLabel = fullscreen.active ? 'Quitter le mode plein écran' : 'Passer en mode plein écran';
  // Keyboard (listed in « Aide »): Ctrl/Cmd+K opens the search from anywhere in the app.
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
                display.rail = false; // opening on a narrow screen turns rail mode off
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
            <Link href="/pricing" className={buttonRecipe({ size: 'sm', variant: subscribed ? 'outline' : 'solid' })}>
              {subscribeLabel}
            </Link>
          ) : (
            <Tooltip label={subscribeLabel}>
              <Link href="/pricing" className={buttonRecipe({ size: 'icon' })} aria-label={subscribeLabel}>
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
        <main className={styles.content}>
          <LimitBanner />
          {can ? <RoleGate can={can}>{children}</RoleGate> : children}
        </main>
      </div>
    </div>
  );
}
