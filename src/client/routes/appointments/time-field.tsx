import type { KeyboardEvent } from 'react';
import { css } from '../../../../styled-system/css';
import { formatTime, parseTime, stepTime, TIME_STEP, type TimeOfDay } from '../../../shared/time-input';
import { Field, Input } from '../../components/ui/field';
import { Button } from '../../components/ui/button';

const ZERO: TimeOfDay = { hours: 9, minutes: 0, seconds: 0 };

/** Which part of 'HH:MM[:SS]' the caret is in (hours before the first colon, then minutes, then seconds). */
function partAt(text: string, caret: number): 'hours' | 'minutes' | 'seconds' {
  const colons = [...text.slice(0, caret)].filter((c) => c === ':' || c === 'h').length;
  return colons === 0 ? 'hours' : colons === 1 ? 'minutes' : 'seconds';
}

/**
 * A time typed as people do (`9h30`, `9:30 pm`, `21:30:05`), written back in 24 h on leaving the field.
 * The picker (↑/↓ on the part under the caret, or the buttons) steps minutes and seconds by 5.
 */
export function TimeField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const step = (part: 'hours' | 'minutes' | 'seconds', direction: 1 | -1) =>
    onChange(formatTime(stepTime(parseTime(value) ?? ZERO, part, direction)));
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    const caret = e.currentTarget.selectionStart ?? 0;
    step(partAt(value, caret), e.key === 'ArrowUp' ? 1 : -1);
  };
  // The Field wires the label, the error text (aria-describedby) and aria-invalid to the input; the step buttons sit
  // beside it, named after the field.
  return (
    <Field label={label} error={error}>
      <div className={css({ display: 'flex', gap: '1', alignItems: 'center' })}>
        <Input
          value={value}
          inputMode="text"
          placeholder="09:30"
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            const parsed = parseTime(value);
            if (parsed) onChange(formatTime(parsed));
          }}
        />
        <Button variant="outline" size="sm" aria-label={`${label} : ${TIME_STEP} minutes plus tôt`} onClick={() => step('minutes', -1)}>
          −{TIME_STEP}
        </Button>
        <Button variant="outline" size="sm" aria-label={`${label} : ${TIME_STEP} minutes plus tard`} onClick={() => step('minutes', 1)}>
          +{TIME_STEP}
        </Button>
      </div>
    </Field>
  );
}
