import { css } from '../../../../styled-system/css';

const spin = css({
  display: 'inline-block',
  borderRadius: 'full',
  borderWidth: '2px',
  borderColor: 'currentColor',
  borderRightColor: 'transparent',
  animation: 'spin 0.7s linear infinite',
  flexShrink: 0,
});

export function Spinner({ size = 20, label }: { size?: number; label?: string }) {
  return <span className={spin} style={{ width: size, height: size }} role={label ? 'status' : undefined} aria-label={label} />;
}
