/** Out of sight but read by assistive technology and forms, as Ark hides its own native inputs. */
export const VISUALLY_HIDDEN = {
  border: '0',
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: '0',
  position: 'absolute',
  width: '1px',
  whiteSpace: 'nowrap',
  wordWrap: 'normal',
} as const;
