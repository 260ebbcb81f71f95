import { type ReactElement, useId, cloneElement } from 'react';
import { css } from '../../../../styled-system/css';
import { tooltipContent } from './tooltip-style';

const styles = {
  holder: css({
    position: 'relative',
    display: 'inline-flex',
    '& > [role=tooltip]': { opacity: 0, visibility: 'hidden', transition: 'opacity 0.1s, visibility 0.1s' },
    // The same 250 ms delay as the Ark tooltip; focus by keyboard shows it too.
    '&:hover > [role=tooltip], &:has(:focus-visible) > [role=tooltip]': {
      opacity: 1,
      visibility: 'visible',
      transitionDelay: '0.25s',
    },
  }),
  tip: css({
    position: 'absolute',
    top: 'calc(100% + 8px)',
    left: '50%',
    transform: 'translateX(-50%)',
    whiteSpace: 'nowrap',
    pointerEvents: 'none',
  }),
};

/**
 * The tooltip of the sign-in pages' top bar, in CSS alone: the same look as the Ark tooltip (components/ui/tooltip.tsx)
 * below its trigger, without the positioning engine that would double the JavaScript the login page downloads.
 */
export function CssTooltip({ label, children }: { label: string; children: ReactElement<{ 'aria-describedby'?: string }> }) {
  const id = useId();
  return (
    <span className={styles.holder}>
      {cloneElement(children, { 'aria-describedby': id })}
      <span role="tooltip" id={id} className={`${tooltipContent} ${styles.tip}`}>
        {label}
      </span>
    </span>
  );
}
