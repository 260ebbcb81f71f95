import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { css, cx } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { display } from '../stores/display';
import { DRAWER_WIDTH, isActive, MENU, RAIL_WIDTH, SETTINGS_CHILDREN } from '../navigation';
import { logoutWithConfirmation } from '../lib/logout';
import { useCanCall } from '../lib/use-can';
import { usePrefetch } from '../lib/prefetch';
import { OrganizationSwitcher } from './organization-switcher';
import { Tooltip } from '../components/ui/tooltip';
import { ChevronLeftIcon, ChevronRightIcon, LogoMark, LogoutIcon } from '../components/icons';

export { DRAWER_WIDTH, RAIL_WIDTH };

const styles = {
  nav: css({
    position: 'fixed',
    top: '0',
    bottom: '0',
    left: '0',
    zIndex: 'modal',
    bg: 'bg.surface',
    borderRightWidth: '1px',
    borderColor: 'border.default',
    display: 'flex',
    flexDirection: 'column',
    transition: 'width 0.2s, transform 0.2s',
    overflowX: 'hidden',
  }),
  hiddenNarrow: css({ transform: 'translateX(-100%)', boxShadow: 'none' }),
  backdrop: css({ position: 'fixed', inset: '0', bg: 'rgba(10, 12, 16, 0.45)', zIndex: 'overlay' }),
  user: css({
    px: '3',
    py: '4',
    display: 'flex',
    alignItems: 'center',
    gap: '2.5',
    minH: '16',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  }),
  userText: css({ minW: '0', lineHeight: '1.3', '& > *': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }),
  list: css({
    flex: '1',
    py: '2',
    px: '2',
    display: 'flex',
    flexDirection: 'column',
    gap: '0.5',
    overflowY: 'auto',
    // The rail is 56 px at any text size: paddings in rem grow at 120 % and would squeeze the icons.
    'nav[data-rail] &': { px: '1.5', overflowY: 'hidden' },
  }),
  item: css({
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    h: '10',
    px: '2.5',
    borderRadius: 'lg',
    color: 'fg.muted',
    fontSize: 'sm',
    fontWeight: '600',
    whiteSpace: 'nowrap',
    _hover: { bg: 'bg.subtle', color: 'fg.default' },
    '&[aria-current=page]': { bg: 'accent.subtle', color: 'accent.fg' },
    'nav[data-rail] &': { px: '0', justifyContent: 'center' },
  }),
  bottom: css({
    p: '2',
    'nav[data-rail] &': { px: '1.5' },
    borderTopWidth: '1px',
    borderColor: 'border.default',
    display: 'flex',
    flexDirection: 'column',
    gap: '0.5',
  }),
  action: css({ cursor: 'pointer', w: 'full', textAlign: 'left' }),
};

/** Left navigation drawer: user on top, the side menu in order, 'Se déconnecter' at the bottom. */
export function SideDrawer({ wide }: { wide: boolean }) {
  const snap = useSnapshot(display);
  const [location] = useLocation();
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  const rail = wide && snap.rail;
  // Paramètres shows when the role may use one of its pages at least (navigation.ts); each role has its own devices.
  const can = useCanCall();
  const settingsShown = SETTINGS_CHILDREN.some((child) => can(child.can));
  const open = wide || snap.drawer;
  const prefetch = usePrefetch({ data: true });

  // A temporary drawer closes once the user has picked a page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of location is the event
  useEffect(() => {
    if (!wide) display.drawer = false;
  }, [location, wide]);

  const label = (text: string, node: React.ReactElement) =>
    rail ? (
      <Tooltip label={text} placement="right">
        {node}
      </Tooltip>
    ) : (
      node
    );

  const initials = me.data ? `${me.data.first_name[0] ?? ''}${me.data.last_name[0] ?? ''}`.toUpperCase() : '';
  return (
    <>
      {!wide && snap.drawer && (
        <div className={styles.backdrop} onClick={() => (display.drawer = false)} aria-hidden="true" data-screenshot-hidden />
      )}
      <nav
        aria-label="Navigation principale"
        className={cx(styles.nav, !open && styles.hiddenNarrow)}
        style={{ width: rail ? RAIL_WIDTH : DRAWER_WIDTH }}
        aria-hidden={!open || undefined}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !wide) display.drawer = false;
        }}
        data-testid="side-drawer"
        data-rail={rail || undefined}
      >
        <div className={styles.user}>
          {rail ? (
            <span
              className={css({
                w: '8',
                h: '8',
                flexShrink: 0,
                borderRadius: 'full',
                bg: 'accent.subtle',
                color: 'accent.fg',
                display: 'grid',
                placeItems: 'center',
                fontSize: 'xs',
                fontWeight: '700',
              })}
              title={me.data ? `${me.data.last_name} ${me.data.first_name}` : undefined}
            >
              {initials || <LogoMark size={20} />}
            </span>
          ) : (
            <>
              <LogoMark size={26} />
              <div className={styles.userText}>
                <div className={css({ fontWeight: '700', fontSize: 'sm' })}>
                  {me.data ? `${me.data.last_name} ${me.data.first_name}` : ''}
                </div>
                <div className={css({ color: 'fg.muted', fontSize: 'xs' })}>{me.data?.email}</div>
              </div>
            </>
          )}
        </div>
        {!rail && <OrganizationSwitcher />}
        <ul className={styles.list}>
          {MENU.filter((entry) => entry.href !== '/settings' || settingsShown).map((entry) => {
            const Icon = entry.icon;
            return (
              <li key={entry.href}>
                {label(
                  entry.label,
                  <Link
                    href={entry.href}
                    className={styles.item}
                    aria-current={isActive(entry, location) ? 'page' : undefined}
                    aria-label={rail ? entry.label : undefined}
                    tabIndex={open ? 0 : -1}
                    onPointerEnter={() => prefetch(entry.href)}
                    onFocus={() => prefetch(entry.href)}
                  >
                    <Icon size={20} />
                    {!rail && <span>{entry.label}</span>}
                  </Link>,
                )}
              </li>
            );
          })}
        </ul>
        <div className={styles.bottom}>
          {wide &&
            label(
              snap.rail ? 'Déplier le menu' : 'Replier le menu',
              <button
                type="button"
                className={cx(styles.item, styles.action)}
                onClick={() => (display.rail = !display.rail)}
                aria-label={snap.rail ? 'Déplier le menu' : 'Replier le menu'}
                aria-expanded={!snap.rail}
              >
                {snap.rail ? <ChevronRightIcon /> : <ChevronLeftIcon />}
                {!rail && <span>Replier le menu</span>}
              </button>,
            )}
          {label(
            'Se déconnecter',
            <button
              type="button"
              className={cx(styles.item, styles.action)}
              onClick={logoutWithConfirmation}
              aria-label={rail ? 'Se déconnecter' : undefined}
              tabIndex={open ? 0 : -1}
            >
              <LogoutIcon size={20} />
              {!rail && <span>Se déconnecter</span>}
            </button>,
          )}
        </div>
      </nav>
    </>
  );
}
