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
  const style = { width: size, height: size };
  return label ? (
    <span className={spin} style={style} role="status" aria-label={label} />
  ) : (
    <span className={spin} style={style} aria-hidden="true" />
  );
}
