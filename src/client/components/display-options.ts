// Apart from the display panel (settings-panel.tsx), which comes with Ark's dialog and radio group: the document
// designer lists the same fonts without downloading them.
import { formatPercent } from '../../shared/typography';

/** Option lists: text size (pixel value on the root) and fonts. */
export const TEXT_SIZES = [
  { label: formatPercent(80, 0), value: 13 },
  { label: formatPercent(90, 0), value: 14 },
  { label: formatPercent(100, 0), value: 15 },
  { label: formatPercent(110, 0), value: 16 },
  { label: formatPercent(120, 0), value: 17 },
];
/** Roboto, Karla and Figtree ship with the app; the others are the visitor's own system fonts when installed. */
export const FONTS = [
  { label: 'Par défaut du système', value: 'system-ui' },
  { label: 'Roboto', value: 'Roboto' },
  { label: 'Karla', value: 'Karla' },
  { label: 'Figtree', value: 'Figtree' },
  { label: 'Arial', value: 'Arial' },
  { label: 'Tahoma', value: 'Tahoma' },
  { label: 'Georgia', value: 'Georgia' },
  { label: 'Helvetica', value: 'Helvetica' },
  { label: 'Verdana', value: 'Verdana' },
];
