import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { display } from '../stores/display';
import { useIsWide } from '../lib/use-media-query';
import { DRAWER_WIDTH, MENU, RAIL_WIDTH } from '../navigation';
import { Bar, PageSkeleton, type PageSkeletonKind } from './skeleton';

const styles = {
  nav: css({
    position: 'fixed',
    top: '0',
    bottom: '0',
    left: '0',
    bg: 'bg.surface',
    borderRightWidth: '1px',
    borderColor: 'border.default',
    display: 'flex',
    flexDirection: 'column',
    overflow: 'hidden',
  }),
  user: css({
    px: '3',
    py: '4',
    minH: '16',
    display: 'flex',
    alignItems: 'center',
    gap: '2.5',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  }),
  avatar: css({ w: '8', h: '8', flexShrink: 0, borderRadius: 'full', bg: 'bg.muted' }),
  list: css({ py: '2', px: '2', display: 'flex', flexDirection: 'column', gap: '0.5' }),
  item: css({
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    h: '10',
    px: '2.5',
    color: 'fg.muted',
    fontSize: 'sm',
    fontWeight: '600',
    whiteSpace: 'nowrap',
  }),
  bar: css({
    position: 'sticky',
    top: '0',
    h: '16',
    px: { base: '3', md: '6' },
    display: 'flex',
    alignItems: 'center',
    bg: 'bg.surface',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  }),
  title: css({ fontSize: 'lg', fontWeight: '700', lineHeight: '1.2', ml: '1' }),
  subtitle: css({ fontSize: 'xs', color: 'fg.muted', ml: '1' }),
  content: css({ p: { base: '4', md: '6' }, maxW: '1200px', mx: 'auto', w: 'full' }),
};

/**
 * The main layout as it will be — the side menu, the top bar with the page's title, the page's skeleton — drawn by the
 * first script while the shell's code, the session, the settings and the page's data come: the first paint already
 * has the page's shape, and nothing jumps when the real shell takes its place.
 */
export function ShellSkeleton({ title, subtitle, skeleton }: { title: string; subtitle?: string; skeleton?: PageSkeletonKind }) {
  const wide = useIsWide();
  const rail = useSnapshot(display).rail;
  const offset = wide ? (rail ? RAIL_WIDTH : DRAWER_WIDTH) : 0;
  return (
    <div className={css({ minH: '100dvh' })} data-testid="shell-skeleton">
      {wide && (
        <div className={styles.nav} style={{ width: offset }} aria-hidden="true">
          <div className={styles.user}>
            <span className={styles.avatar} />
            {!rail && (
              <span className={css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '2' })}>
                <Bar width="80%" />
                <Bar width="60%" height="0.5rem" />
              </span>
            )}
          </div>
          <ul className={styles.list}>
            {MENU.map(({ href, label, icon: Icon }) => (
              <li key={href} className={styles.item} style={rail ? { justifyContent: 'center', padding: 0 } : undefined}>
                <Icon size={20} />
                {!rail && <span>{label}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div style={{ marginLeft: offset }} className={css({ display: 'flex', flexDirection: 'column', minH: '100dvh' })}>
        {/* Not a heading yet: the page's own comes with the shell. */}
        <div className={styles.bar}>
          <div>
            <p className={styles.title}>{title}</p>
            {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
          </div>
        </div>
        <div className={styles.content}>
          <PageSkeleton skeleton={skeleton} />
        </div>
      </div>
    </div>
  );
}
