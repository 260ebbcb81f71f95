import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { css, cx } from '../../../../styled-system/css';

export const inputStyle = css({
  w: 'full',
  h: '10',
  px: '3',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border.default',
  bg: 'bg.surface',
  color: 'fg.default',
  fontSize: 'sm',
  transition: 'border-color 0.15s, box-shadow 0.15s',
  _placeholder: { color: 'fg.subtle' },
  _hover: { borderColor: 'border.strong' },
  _focusVisible: { outline: 'none', borderColor: 'accent.default', boxShadow: '0 0 0 3px token(colors.accent.subtle)' },
  '&[aria-invalid=true]': { borderColor: 'danger' },
  // Locked fields look locked: nothing to type into.
  '&[readonly]': { bg: 'bg.subtle', color: 'fg.muted', cursor: 'default', _hover: { borderColor: 'border.default' } },
});

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: ReactNode };

/** A labelled input; its error is announced with it (aria-describedby) and shown under it. */
export const TextField = forwardRef<HTMLInputElement, Props>(function TextField({ label, error, hint, className, id, ...rest }, ref) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const messageId = `${inputId}-message`;
  return (
    <div className={cx(css({ display: 'flex', flexDirection: 'column', gap: '1.5' }), className)}>
      <label htmlFor={inputId} className={css({ fontSize: 'sm', fontWeight: '600', color: 'fg.default' })}>
        {label}
      </label>
      <input
        ref={ref}
        id={inputId}
        className={inputStyle}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...rest}
      />
      {error ? (
        <p id={messageId} className={css({ fontSize: 'xs', color: 'danger' })}>
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {hint}
        </p>
      ) : null}
    </div>
  );
});
