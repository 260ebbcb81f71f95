import { defineSlotRecipe } from '@pandacss/dev';

/** Ark's dialog: a centred box, a sheet on the right edge (the settings panel), or the search palette near the top. */
export const dialogRecipe = defineSlotRecipe({
  className: 'dialog',
  slots: ['backdrop', 'positioner', 'content', 'header', 'title', 'body', 'footer'],
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'rgba(10, 12, 16, 0.45)', zIndex: 'overlay' },
    positioner: { position: 'fixed', inset: '0', display: 'flex', zIndex: 'modal' },
    content: {
      bg: 'bg.surface',
      color: 'fg.default',
      borderRadius: 'card',
      boxShadow: 'overlay',
      w: 'full',
      maxH: 'calc(100dvh - 32px)',
      display: 'flex',
      flexDirection: 'column',
      overflow: 'hidden',
      _focusVisible: { outline: 'none' },
    },
    header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', px: '5', pt: '4', pb: '2' },
    title: { fontSize: 'lg', fontWeight: '700' },
    body: { px: '5', py: '2', overflowY: 'auto', flex: '1' },
    footer: { display: 'flex', justifyContent: 'flex-end', gap: '2', px: '5', pt: '3', pb: '4' },
  },
  variants: {
    placement: {
      center: { positioner: { alignItems: 'center', justifyContent: 'center', p: '4' } },
      right: {
        positioner: { justifyContent: 'flex-end' },
        content: { h: '100dvh', maxH: '100dvh', borderRadius: '0', borderTopLeftRadius: 'card', borderBottomLeftRadius: 'card' },
      },
      // The search palette: near the top of the screen, as wide as its results need, its own layout inside.
      top: {
        positioner: { justifyContent: 'center', alignItems: 'flex-start', pt: { base: '4', md: '20' }, px: '4' },
        content: { display: 'block', maxW: '600px', maxH: 'none', color: 'inherit' },
      },
    },
  },
  defaultVariants: { placement: 'center' },
});
