import { useFieldContext } from '@ark-ui/react/field';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cx } from '../../../../styled-system/css';
import { checkbox as checkboxRecipe } from '../../../../styled-system/recipes';
import { arkPart, type PointerHold, useArkPartAtRest } from '../../lib/lazy-page';
import { CheckIcon } from '../icons';
import { VISUALLY_HIDDEN } from './field';

export interface CheckboxProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Visible text; without it, give an aria-label (a checkbox in a table row). */
  children?: ReactNode;
  'aria-label'?: string;
  disabled?: boolean;
  name?: string;
  value?: string;
  className?: string;
}

// Ark's checkbox machine and the helpers it brings are some 10 KB gzip in five files, on nearly every list's first load
// (row selection, tag filters). It downloads when the browser is idle (ark-checkbox.tsx); until then a native checkbox
// drawn alike does the same work, so nothing waits for it.
const ark = arkPart(
  () => import('./ark-checkbox'),
  (m) => m.ArkCheckbox,
);

/** A checkbox whose whole line is its label (ark-checkbox.tsx): Ark's once downloaded, a native one drawn alike before. */
export function Checkbox(props: CheckboxProps) {
  const [Real, hold] = useArkPartAtRest(ark);
  const focused = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  // The stand-in unmounted under the user's focus: the real checkbox takes it.
  useEffect(() => {
    if (Real && focused.current) input.current?.focus({ preventScroll: true });
  }, [Real]);
  if (Real) return <Real {...props} inputRef={input} />;
  return <StandIn {...props} focused={focused} hold={hold} />;
}

/**
 * Ark's checkbox as it draws (same parts, classes and data attributes, the Field's ids and state), on a native checkbox
 * that already toggles, reads in forms and is announced: the user can use it before Ark's code is there.
 */
function StandIn({
  checked,
  onChange,
  children,
  disabled,
  name,
  value,
  className,
  focused,
  hold,
  ...aria
}: CheckboxProps & { focused: { current: boolean }; hold: PointerHold }) {
  const styles = checkboxRecipe();
  const field = useFieldContext();
  const ownId = useId();
  const inputId = field?.ids.control ?? `${ownId}-input`;
  const labelId = field?.ids.label ?? `${ownId}-label`;
  const [focusVisible, setFocusVisible] = useState(false);
  const isDisabled = disabled ?? field?.disabled ?? false;
  const states = {
    'data-state': checked ? 'checked' : 'unchecked',
    'data-disabled': isDisabled ? '' : undefined,
    'data-focus-visible': focusVisible ? '' : undefined,
    'data-invalid': field?.invalid ? '' : undefined,
  };
  return (
    <label data-scope="checkbox" data-part="root" {...states} htmlFor={inputId} className={cx(styles.root, className)} {...hold}>
      <div data-scope="checkbox" data-part="control" aria-hidden="true" {...states} className={styles.control}>
        <div data-scope="checkbox" data-part="indicator" {...states} hidden={!checked} className={styles.indicator}>
          <CheckIcon size={14} strokeWidth={3} />
        </div>
      </div>
      {children !== undefined && (
        <span data-scope="checkbox" data-part="label" id={labelId} {...states} className={styles.label}>
          {children}
        </span>
      )}
      <input
        id={inputId}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        // As Ark's: the click the label forwards to the checkbox goes no further (a row around it sees the first one only).
        onClick={(event) => event.stopPropagation()}
        disabled={isDisabled}
        required={field?.required}
        aria-invalid={field?.invalid}
        name={name}
        value={value}
        aria-label={aria['aria-label']}
        aria-labelledby={children !== undefined ? labelId : undefined}
        style={VISUALLY_HIDDEN}
        onFocus={(event) => {
          focused.current = true;
          setFocusVisible(event.currentTarget.matches(':focus-visible'));
        }}
        onBlur={(event) => {
          // Not when the swap itself removes it: the focus is then handed to the real checkbox.
          if (!event.currentTarget.isConnected) return;
          focused.current = false;
          setFocusVisible(false);
        }}
      />
    </label>
  );
}
