import { useLayoutEffect, useRef } from 'react';
import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { DOCUMENT_TYPES, type ListType } from '../../../shared/document-types';
import { LIST_BASES } from '../../../shared/status';
import { LIST_TITLES } from './document-meta';

/** The six kinds of sales documents, then the recurring invoices: a list of its own, reached from the same strip. */
const LISTS: readonly ListType[] = [...DOCUMENT_TYPES, 'recurring'];

const styles = {
  nav: css({
    display: 'flex',
    gap: '1',
    overflowX: 'auto',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    mb: '4',
    scrollbarWidth: 'thin',
  }),
  tab: css({
    px: '3',
    py: '2',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    whiteSpace: 'nowrap',
    borderBottomWidth: '2px',
    borderColor: 'transparent',
    mb: '-1px',
    _hover: { color: 'fg.default' },
    _focusVisible: { outline: '2px solid token(colors.accent.default)', outlineOffset: '-2px', borderRadius: 'md' },
  }),
  active: css({ color: 'accent.fg', borderColor: 'accent.default' }),
};

/**
 * The side menu has one "Documents" entry: this strip switches between the lists of sales documents. On a phone it
 * scrolls sideways; the list shown is brought into the strip, never left off-screen (« Avoirs » is the sixth).
 */
export function DocumentTypeTabs({ current }: { current: ListType }) {
  const nav = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    // Measured in the frame that paints the strip, whose layout it reuses: read in React's commit, the positions forced
    // the whole page's first style and layout there, and the commit (the list's rows) ended only after it.
    const frame = requestAnimationFrame(() => {
      const strip = nav.current;
      const active = strip?.querySelector<HTMLElement>(`a[href="${LIST_BASES[current]}"]`);
      if (!strip || !active) return;
      const left = active.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft;
      // Only the strip scrolls (scrollIntoView would scroll the page too), and only when the tab is not wholly in it.
      if (left < strip.scrollLeft || left + active.offsetWidth > strip.scrollLeft + strip.clientWidth)
        strip.scrollLeft = left - (strip.clientWidth - active.offsetWidth) / 2;
    });
    return () => cancelAnimationFrame(frame);
  }, [current]);
  return (
    <nav ref={nav} aria-label="Types de documents" className={styles.nav}>
      {LISTS.map((type) => (
        <Link
          key={type}
          href={LIST_BASES[type]}
          className={cx(styles.tab, type === current && styles.active)}
          aria-current={type === current ? 'page' : undefined}
        >
          {LIST_TITLES[type]}
        </Link>
      ))}
    </nav>
  );
}
