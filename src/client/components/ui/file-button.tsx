import type { ReactNode } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { buttonRecipe } from './button';

const styles = {
  // The label is what is seen and clicked; the keyboard focuses the file input inside it, so the ring shows here.
  root: css({
    _focusWithin: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
    '&[data-disabled]': { opacity: 0.55, cursor: 'not-allowed' },
  }),
  // A link in running text: no button box (the button recipe's sizes would pad it).
  link: css({
    display: 'inline-flex',
    alignItems: 'center',
    gap: '2',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'accent.fg',
    textDecoration: 'underline',
    cursor: 'pointer',
    borderRadius: 'sm',
  }),
};

interface Props {
  /** The visible text; it names the input unless `aria-label` says more (« Fichier CSV des clients »). */
  children: ReactNode;
  onFile: (file: File) => void;
  accept: string;
  variant?: 'outline' | 'link';
  disabled?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
  className?: string;
}

/**
 * A file picked through a button-looking label: the native file input stays (hidden visually, not from assistive
 * technology), since only it opens the system's file chooser and takes keyboard focus, Enter and Space. It is emptied
 * after each pick so the same file can be chosen again after a fix.
 */
export function FileButton({ children, onFile, accept, variant = 'outline', disabled, className, ...rest }: Props) {
  return (
    <label
      className={cx(variant === 'link' ? styles.link : buttonRecipe({ variant, size: 'md' }), styles.root, className)}
      data-disabled={disabled || undefined}
    >
      {children}
      <input
        type="file"
        accept={accept}
        disabled={disabled}
        className={css({ srOnly: true })}
        aria-label={rest['aria-label']}
        data-testid={rest['data-testid']}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
    </label>
  );
}
