import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { css, cx } from '../../../styled-system/css';
import { buttonRecipe } from './ui/button';
import { LockIcon } from './icons';
import type { Procedure } from '../lib/procedure-rules';
import { useCan } from '../lib/use-can';

export const NO_ACCESS = 'Vous n’avez pas accès à cette page';

/**
 * What a role that may not use a page sees when it opens it by its address: a plain statement, not a
 * form whose every save would answer 403.
 */
export function NoAccess() {
  return (
    <div
      role="alert"
      data-testid="no-access"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: '3',
        textAlign: 'center',
        py: '16',
        px: '4',
        color: 'fg.muted',
      })}
    >
      <LockIcon size={32} />
      <h2 className={css({ fontSize: 'lg', fontWeight: '700', color: 'fg.default' })}>{NO_ACCESS}</h2>
      <p className={css({ maxW: '420px' })}>Votre rôle dans cette organisation ne le permet pas. Demandez à un administrateur si besoin.</p>
      <Link href="/" className={buttonRecipe({ variant: 'outline' })}>
        Retour à l’accueil
      </Link>
    </div>
  );
}

/**
 * Form fields a role may read but not change: it stands in for the form's body `<div>` as a fieldset (the preflight
 * leaves it borderless) whose `disabled` reaches every control inside, so the form shows as it is, read-only,
 * without touching each field.
 */
export function ReadOnly({ readOnly, className, children }: { readOnly: boolean; className?: string; children: ReactNode }) {
  return (
    <fieldset disabled={readOnly} className={cx(css({ minW: '0' }), className)} data-read-only={readOnly || undefined}>
      {children}
    </fieldset>
  );
}

/** A page for the roles that may call `can`; any other sees {@link NoAccess} where the page would be. */
export function RoleGate({ can, children }: { can: Procedure; children: ReactNode }): ReactNode {
  return useCan(can) ? children : <NoAccess />;
}
