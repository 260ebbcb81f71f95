import type { ReactNode } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { Button } from '../../components/ui/button';
import { SETTINGS_CHILDREN } from '../../navigation';
import { useCanCall } from '../../lib/use-can';

const styles = {
  layout: css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '220px 1fr' }, gap: '5', alignItems: 'start' }),
  nav: css({
    display: 'flex',
    flexDirection: { base: 'row', lg: 'column' },
    gap: '0.5',
    overflowX: 'auto',
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '2',
  }),
  link: css({
    px: '3',
    py: '2',
    borderRadius: 'lg',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    whiteSpace: 'nowrap',
    _hover: { bg: 'bg.subtle', color: 'fg.default' },
    '&[aria-current=page]': { bg: 'accent.subtle', color: 'accent.fg' },
  }),
};

/** /settings opens the first child the role may use (every role has its own devices). */
export function SettingsIndex() {
  const can = useCanCall();
  const first = SETTINGS_CHILDREN.find((child) => can(child.can)) ?? SETTINGS_CHILDREN[0];
  return <Redirect to={`/settings/${first.slug}`} replace />;
}

/** The settings pages the role may use, beside the page being edited. */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const can = useCanCall();
  return (
    <div className={styles.layout}>
      <nav aria-label="Paramètres" className={styles.nav}>
        {SETTINGS_CHILDREN.filter((child) => can(child.can)).map((child) => (
          <Link
            key={child.slug}
            href={`/settings/${child.slug}`}
            className={styles.link}
            aria-current={location === `/settings/${child.slug}` ? 'page' : undefined}
          >
            {child.title}
          </Link>
        ))}
      </nav>
      <div className={css({ minW: '0' })}>{children}</div>
    </div>
  );
}

export const settingsCard = css({
  bg: 'bg.surface',
  borderRadius: 'card',
  borderWidth: '1px',
  borderColor: 'border.default',
  p: { base: '4', md: '6' },
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
});
export const settingsSection = css({
  fontSize: 'xs',
  fontWeight: '700',
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
  color: 'fg.muted',
  mt: '2',
});
export const settingsGrid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '4' });

/** The foot of a settings form: the unsaved flag, undo, and save. */
export function SettingsActions({
  dirty,
  saving,
  onUndo,
  onSave,
}: {
  dirty: boolean;
  saving: boolean;
  onUndo: () => void;
  onSave: () => void;
}) {
  return (
    <div
      className={css({
        display: 'flex',
        // On a phone the notice and both buttons do not fit one line: the notice wraps above them instead of being
        // pushed off the left edge.
        flexWrap: 'wrap',
        justifyContent: 'flex-end',
        gap: '2',
        alignItems: 'center',
        borderTopWidth: '1px',
        borderColor: 'border.default',
        pt: '4',
      })}
    >
      {dirty && <span className={css({ fontSize: 'sm', color: 'warning', mr: 'auto' })}>Modifications non enregistrées</span>}
      <Button variant="ghost" disabled={!dirty} onClick={onUndo}>
        Annuler les modifications
      </Button>
      <Button onClick={onSave} disabled={!dirty} loading={saving}>
        Enregistrer
      </Button>
    </div>
  );
}
