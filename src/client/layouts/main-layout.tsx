import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { display, toggleTheme } from '../stores/display';
import { logoutWithConfirmation } from '../lib/logout';
import { Button } from '../components/ui/button';
import { Tooltip } from '../components/ui/tooltip';
import { LogoMark, LogoutIcon, MoonIcon, SunIcon } from '../components/icons';

const styles = {
  page: css({ minH: '100dvh', display: 'flex', flexDirection: 'column' }),
  bar: css({ h: '16', px: { base: '4', md: '6' }, display: 'flex', alignItems: 'center', gap: '3', bg: 'bg.surface', borderBottomWidth: '1px', borderColor: 'border.default' }),
  titles: css({ flex: '1', minW: '0' }),
  title: css({ fontSize: 'lg', fontWeight: '700', lineHeight: '1.2' }),
  subtitle: css({ fontSize: 'xs', color: 'fg.muted' }),
  user: css({ textAlign: 'right', fontSize: 'sm', lineHeight: '1.3', display: { base: 'none', sm: 'block' } }),
  content: css({ flex: '1', p: { base: '4', md: '6' }, maxW: '1200px', w: 'full', mx: 'auto' }),
};

/** The logged-in frame. */
export function MainLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  const snap = useSnapshot(display);
  const nextTheme = snap.theme === 'dark' ? 'Claire' : 'Sombre';
  return (
    <div className={styles.page}>
      <header className={styles.bar}>
        <LogoMark />
        <div className={styles.titles}>
          <h1 className={styles.title}>{title}</h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </div>
        {me.data && (
          <div className={styles.user}>
            <div className={css({ fontWeight: '600' })}>
              {me.data.last_name} {me.data.first_name}
            </div>
            <div className={css({ color: 'fg.muted', fontSize: 'xs' })}>{me.data.email}</div>
          </div>
        )}
        <Tooltip label={nextTheme}>
          <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={`Thème : passer en ${nextTheme.toLowerCase()}`}>
            {snap.theme === 'dark' ? <SunIcon /> : <MoonIcon />}
          </Button>
        </Tooltip>
        <Button variant="outline" size="sm" onClick={logoutWithConfirmation}>
          <LogoutIcon size={16} />
          Se déconnecter
        </Button>
      </header>
      <main className={styles.content}>{children}</main>
    </div>
  );
}
