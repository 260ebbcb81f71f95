import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { DOCUMENT_TYPES, type DocumentType } from '../../../shared/schemas/document';
import { LIST_TITLES, baseOf } from './document-meta';

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

/** The side menu has one "Documents" entry: this strip switches between the six kinds of sales documents. */
export function DocumentTypeTabs({ current }: { current: DocumentType }) {
  return (
    <nav aria-label="Types de documents" className={styles.nav}>
      {DOCUMENT_TYPES.map((type) => (
        <Link
          key={type}
          href={baseOf(type)}
          className={cx(styles.tab, type === current && styles.active)}
          aria-current={type === current ? 'page' : undefined}
        >
          {LIST_TITLES[type]}
        </Link>
      ))}
    </nav>
  );
}
