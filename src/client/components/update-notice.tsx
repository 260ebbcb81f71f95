import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { ui } from '../stores/ui';
import { serverVersion } from '../lib/plain-call';
import { Button } from './ui/button';

/** The event the shell listens for on the page body. */
export const WEB_UPDATE_EVENT = 'web-update';
const POLL_MS = 60_000;

/**
 * Compares the server's build id with the one this page started on — every minute and whenever the tab comes back
 * into view — and raises the web-update event on the body when it changed: a new version was deployed.
 */
function useBuildWatcher() {
  const first = useRef<string | null>(null);
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      try {
        const { build_id } = await serverVersion();
        if (stopped) return;
        if (first.current === null) first.current = build_id;
        else if (build_id !== first.current) document.body.dispatchEvent(new CustomEvent(WEB_UPDATE_EVENT, { detail: { build_id } }));
      } catch {
        /* offline for a moment: the next check will tell */
      }
    };
    void check();
    const timer = setInterval(check, POLL_MS);
    const onVisible = () => document.visibilityState === 'visible' && void check();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, []);
}

/** Update notice: bottom right, no timeout, 'Actualiser' reloads. */
export function UpdateNotice() {
  const { updateAvailable } = useSnapshot(ui);
  useBuildWatcher();
  useEffect(() => {
    const show = () => (ui.updateAvailable = true);
    document.body.addEventListener(WEB_UPDATE_EVENT, show);
    return () => document.body.removeEventListener(WEB_UPDATE_EVENT, show);
  }, []);
  if (!updateAvailable) return null;
  return (
    <div
      role="status"
      data-testid="update-notice"
      data-screenshot-hidden
      className={css({
        position: 'fixed',
        right: '4',
        bottom: '4',
        zIndex: 'toast',
        maxW: '340px',
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'card',
        boxShadow: 'overlay',
        p: '4',
        display: 'flex',
        gap: '3',
        alignItems: 'center',
      })}
    >
      <div className={css({ flex: '1' })}>
        <p className={css({ fontWeight: '700', fontSize: 'sm' })}>Mise à jour logicielle</p>
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>Une nouvelle mise à jour logicielle est disponible</p>
      </div>
      <Button size="sm" onClick={() => window.location.reload()}>
        Actualiser
      </Button>
    </div>
  );
}
