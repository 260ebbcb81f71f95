import { css } from '../../../../styled-system/css';

export const form = css({ display: 'flex', flexDirection: 'column', gap: '4' });
export const row = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });
export const links = css({ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: '2', fontSize: 'sm' });
export const link = css({ color: 'accent.fg', fontWeight: '600', _hover: { textDecoration: 'underline' } });
export const lead = css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.5' });
export const notice = css({
  display: 'flex',
  gap: '3',
  alignItems: 'flex-start',
  p: '3',
  borderRadius: 'lg',
  fontSize: 'sm',
  lineHeight: '1.5',
});
export const noticeSuccess = css({ bg: 'successSubtle', color: 'success' });
export const noticeError = css({ bg: 'dangerSubtle', color: 'danger' });
