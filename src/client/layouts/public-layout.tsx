import type { ReactNode } from 'react';
import { css } from '../../../styled-system/css';
import { LogoMark } from '../components/icons';

/** Pages seen without logging in (preview, share): no app chrome. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div
      className={css({
        minH: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: '6',
        p: { base: '4', md: '10' },
      })}
    >
      <LogoMark size={32} />
      <div className={css({ w: 'full', maxW: '720px' })}>{children}</div>
    </div>
  );
}
