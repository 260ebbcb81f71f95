import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cva, cx, type RecipeVariantProps } from '../../../../styled-system/css';
import { Spinner } from './spinner';

export const buttonRecipe = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: '600',
    borderRadius: 'lg',
    cursor: 'pointer',
    transition: 'background 0.15s, border-color 0.15s, color 0.15s',
    whiteSpace: 'nowrap',
    userSelect: 'none',
    _disabled: { opacity: 0.55, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      solid: { bg: 'accent.solid', color: 'fg.onAccent', _hover: { _enabled: { bg: 'accent.solidHover' } } },
      outline: {
        borderWidth: '1px',
        borderColor: 'border.strong',
        bg: 'bg.surface',
        color: 'fg.default',
        _hover: { _enabled: { bg: 'bg.subtle' } },
      },
      ghost: { bg: 'transparent', color: 'fg.default', _hover: { _enabled: { bg: 'bg.subtle' } } },
      danger: { bg: 'danger', color: 'white', _hover: { _enabled: { opacity: 0.9 } } },
      link: { bg: 'transparent', color: 'accent.fg', px: '0!', h: 'auto!', _hover: { textDecoration: 'underline' } },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      md: { h: '10', px: '4', fontSize: 'sm' },
      lg: { h: '11', px: '5', fontSize: 'md' },
      icon: { h: '9', w: '9', p: '0', borderRadius: 'full' },
    },
    block: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
});

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & RecipeVariantProps<typeof buttonRecipe> & { loading?: boolean };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, block, loading, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={cx(buttonRecipe({ variant, size, block }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size={16} />}
      {children}
    </button>
  );
});
