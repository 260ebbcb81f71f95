import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import type { z } from 'zod';
import type { customerDuplicatesSchema } from '../../../shared/schemas/customer';

export type CustomerDuplicate = z.infer<typeof customerDuplicatesSchema>['data'][number];

const box = css({
  bg: 'warningSubtle',
  borderWidth: '1px',
  borderColor: 'warning',
  borderRadius: 'card',
  p: '3',
  fontSize: 'sm',
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
});

/**
 * A customer with the same SIREN, or the same name and e-mail, is probably already there. Said before the
 * second record exists, with a way to open the first; « Créer quand même » stays possible (two branches of one group).
 */
export function DuplicateWarning({ duplicates, onOpen }: { duplicates: readonly CustomerDuplicate[]; onOpen: () => void }) {
  // Asked from the footer's button, at the bottom of a long form: bring the warning into view once.
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <section ref={ref} role="alert" className={box} data-testid="customer-duplicates">
      <p className={css({ fontWeight: '700', color: 'fg.default' })}>
        {duplicates.length > 1 ? 'Ces clients existent peut-être déjà :' : 'Ce client existe peut-être déjà :'}
      </p>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
        {duplicates.map((d) => (
          <li key={d.id} className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'baseline' })}>
            <span>
              <strong>{d.name}</strong> ({d.number}
              {d.deleted_at ? ', archivé' : ''}) —{' '}
              {d.reason === 'siren' ? `même SIREN ${d.business_id.slice(0, 9)}` : `même nom et même e-mail ${d.email}`}
            </span>
            <Link href={`/customers/${d.id}`} onClick={onOpen} className={css({ color: 'accent.fg', fontWeight: '700' })}>
              Ouvrir la fiche existante
            </Link>
          </li>
        ))}
      </ul>
      <p className={css({ color: 'fg.muted' })}>S’il s’agit bien d’un autre client, « Créer quand même » l’ajoute.</p>
    </section>
  );
}
