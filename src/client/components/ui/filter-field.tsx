import type { ReactNode } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { Field } from './field';

// In a list's filter panel every label is a small uppercase heading (listStyles.label), the kit's own labels included.
const heading = css({
  '& > [data-part=label]': {
    fontSize: 'xs',
    fontWeight: '700',
    textTransform: 'uppercase',
    letterSpacing: '0.06em',
    color: 'fg.muted',
  },
});

/** One filter of a list's side panel: the kit's Field (label wired to the control), headed like the panel's others. */
export function FilterField({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <Field label={label} size="sm" className={cx(heading, className)}>
      {children}
    </Field>
  );
}
