import { type ReactElement, useId, cloneElement } from 'react';
import { tooltip } from '../../../../styled-system/recipes';

/**
 * The tooltip of the sign-in pages' top bar, in CSS alone: the same look as the Ark tooltip (components/ui/tooltip.tsx)
 * below its trigger, without the positioning engine that would double the JavaScript the login page downloads.
 */
export function CssTooltip({ label, children }: { label: string; children: ReactElement<{ 'aria-describedby'?: string }> }) {
  const id = useId();
  const styles = tooltip({ cssOnly: true });
  return (
    <span className={styles.holder}>
      {cloneElement(children, { 'aria-describedby': id })}
      <span role="tooltip" id={id} className={styles.content}>
        {label}
      </span>
    </span>
  );
}
