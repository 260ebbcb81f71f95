import { useFieldContext } from '@ark-ui/react/field';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { cx } from '../../../../styled-system/css';
import { numberInput as numberInputRecipe } from '../../../../styled-system/recipes';
import { arkPart, useArkPart } from '../../lib/lazy-page';
import { ChevronDownIcon, ChevronUpIcon } from '../icons';
import { type TextHandover, useHandOver, useTakeOver } from '../../lib/text-handover';
import type { FieldSize } from './field';

export const NUMBER_LOCALE = 'fr-FR';
// Typed digits are kept as typed; the steppers and arrow keys format the French way ('12,5'), without grouping so a
// year or a number of days never reads '2 026'.
export const NUMBER_FORMAT: Intl.NumberFormatOptions = { useGrouping: false, maximumFractionDigits: 6 };
const toText = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '' : new Intl.NumberFormat(NUMBER_LOCALE, NUMBER_FORMAT).format(value);
/** The number a French text reads as ('12,5', '-3'); NaN when empty or not a number yet ('-'). */
const toNumber = (text: string) => {
  const plain = text.replace(/\s/g, '').replace(',', '.');
  return plain === '' ? Number.NaN : Number(plain);
};

/**
 * Ark's French parser refuses '.', yet a French numeric keypad types it and people write '1.5': read it as the decimal
 * comma (caught before Ark's own check, which would drop the keystroke). On the control, around the input.
 */
export function readDecimalPoint(event: FormEvent<HTMLElement>) {
  const typed = (event.nativeEvent as InputEvent).data;
  if (!typed?.includes('.')) return;
  event.preventDefault();
  document.execCommand('insertText', false, typed.replaceAll('.', ','));
}

export interface NumberInputProps {
  /** NaN or undefined when empty: the caller's schema then says a number is expected, rather than saving a 0. */
  value: number | undefined;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** A short unit shown inside the box ('mm', 'jours'); the label should name it too for screen readers. */
  unit?: string;
  placeholder?: string;
  size?: FieldSize;
  disabled?: boolean;
  className?: string;
  'aria-label'?: string;
}

// Ark's number input machine and the helpers it brings are some 18 KB gzip in five files, on the designer's first load.
// It downloads when the browser is idle, or on hover or focus (ark-number-input.tsx); until then an input drawn alike
// stands in, takes what is typed, and steps with the arrow keys and its buttons.
const ark = arkPart(
  () => import('./ark-number-input'),
  (m) => m.ArkNumberInput,
);

/**
 * A count or a measure (days, millimetres, a rank), not money: Ark's NumberInput once downloaded (ark-number-input.tsx),
 * the same-looking input before. Amounts use AmountInput, whose value stays a decimal string.
 */
export function NumberInput(props: NumberInputProps) {
  const { value } = props;
  const Real = useArkPart(ark);
  // The text is the field's own while typing ('12,' is on the way to 12,5), in the stand-in and then in Ark's input; it
  // follows the value when the value changes from outside.
  const [text, setText] = useState(() => toText(value));
  useEffect(() => {
    setText((current) => {
      const shown = toNumber(current);
      const same = (Number.isNaN(shown) && (value === undefined || Number.isNaN(value))) || shown === value;
      return same ? current : toText(value);
    });
  }, [value]);
  const state = useRef<TextHandover>({ focused: false });
  const input = useRef<HTMLInputElement>(null);
  useTakeOver(Real, state, input);
  if (Real) return <Real {...props} text={text} onText={setText} inputRef={input} />;
  return <StandIn {...props} text={text} onText={setText} state={state} />;
}

const ALLOWED = /^[-+\d\s,]*$/;

/**
 * Ark's number input as it draws (same parts, classes, data attributes, role and the Field's ids and state), without its
 * machine: the page keeps its layout when the real one replaces it, and nothing typed meanwhile is lost.
 */
function StandIn({
  onChange,
  min,
  max,
  step = 1,
  unit,
  placeholder,
  size,
  disabled,
  className,
  text,
  onText,
  state,
  ...aria
}: NumberInputProps & { text: string; onText: (text: string) => void; state: { current: TextHandover } }) {
  const styles = numberInputRecipe({ size, withUnit: Boolean(unit) });
  const field = useFieldContext();
  const ownId = useId();
  const [focused, setFocused] = useState(false);
  const isDisabled = disabled ?? field?.disabled ?? false;
  const invalid = field?.invalid ? '' : undefined;
  const current = toNumber(text);
  const states = {
    'data-disabled': isDisabled ? '' : undefined,
    'data-focus': focused ? '' : undefined,
    'data-invalid': invalid,
  };
  const write = (next: string) => {
    onText(next);
    onChange(toNumber(next));
  };
  const stepBy = (direction: 1 | -1) => {
    if (isDisabled || field?.readOnly) return;
    const from = Number.isNaN(current) ? (min ?? 0) - direction * step : current;
    write(toText(Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min ?? Number.NEGATIVE_INFINITY, from + direction * step))));
  };
  const atMax = max !== undefined && current >= max;
  const atMin = min !== undefined && current <= min;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    stepBy(event.key === 'ArrowUp' ? 1 : -1);
  };
  const preload = () => void ark.preload();
  const element = useHandOver(state);
  return (
    <div data-scope="number-input" data-part="root" {...states} className={cx(styles.root, className)} onPointerEnter={preload}>
      {/* biome-ignore lint/a11y/useSemanticElements: Ark's control is a div with this role; a fieldset would draw and read differently */}
      <div
        data-scope="number-input"
        data-part="control"
        role="group"
        aria-disabled={isDisabled}
        aria-invalid={field?.invalid || undefined}
        {...states}
        className={styles.control}
        onBeforeInputCapture={readDecimalPoint}
      >
        <input
          ref={element}
          id={field?.ids.control ?? `${ownId}-input`}
          data-scope="number-input"
          data-part="input"
          {...states}
          className={styles.input}
          type="text"
          role="spinbutton"
          aria-roledescription="numberfield"
          inputMode="decimal"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          placeholder={placeholder}
          aria-label={aria['aria-label']}
          aria-invalid={field?.invalid || undefined}
          aria-describedby={field?.ariaDescribedby}
          aria-valuemin={min}
          aria-valuemax={max}
          aria-valuenow={Number.isNaN(current) ? undefined : current}
          disabled={isDisabled}
          readOnly={field?.readOnly}
          required={field?.required}
          value={text}
          onChange={(event) => {
            // As Ark's: a keystroke that cannot make a number is not taken.
            if (!ALLOWED.test(event.target.value)) return;
            write(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            state.current.focused = true;
            setFocused(true);
            preload();
          }}
          onBlur={(event) => {
            // Not when the swap itself removes it: the focus is then handed to the real input.
            if (!event.currentTarget.isConnected) return;
            state.current.focused = false;
            setFocused(false);
          }}
        />
        {unit && (
          <span className={styles.unit} aria-hidden="true">
            {unit}
          </span>
        )}
        <StepButton
          part="increment-trigger"
          label="Augmenter"
          className={styles.incrementTrigger}
          off={isDisabled || atMax}
          onStep={() => stepBy(1)}
        >
          <ChevronUpIcon />
        </StepButton>
        <StepButton
          part="decrement-trigger"
          label="Diminuer"
          className={styles.decrementTrigger}
          off={isDisabled || atMin}
          onStep={() => stepBy(-1)}
        >
          <ChevronDownIcon />
        </StepButton>
      </div>
    </div>
  );
}

/** A stepper as Ark draws it: out of the tab order, and a mouse press leaves the focus in the input. */
function StepButton({
  part,
  label,
  className,
  off,
  onStep,
  children,
}: {
  part: string;
  label: string;
  className: string;
  off: boolean;
  onStep: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      data-scope="number-input"
      data-part={part}
      className={className}
      aria-label={label}
      tabIndex={-1}
      disabled={off}
      data-disabled={off ? '' : undefined}
      onPointerDown={(event) => {
        if (event.pointerType === 'mouse') event.preventDefault();
      }}
      onClick={onStep}
    >
      {children}
    </button>
  );
}
