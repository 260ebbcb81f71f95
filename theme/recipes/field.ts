import { defineRecipe, defineSlotRecipe } from '@pandacss/dev';

/**
 * The one form kit's looks (park-ui style): each Ark part is styled here once, through its data-* states, and
 * feature code composes the components of src/client/components/ui without restyling the parts.
 */

/** The box every typed value sits in: text, textarea, amount, number, select trigger. */
const control = {
  w: 'full',
  minW: '0',
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
  '&[aria-invalid=true], &[data-invalid]': { borderColor: 'danger' },
  // Locked fields look locked: nothing to type into.
  '&[readonly], &[data-readonly]': { bg: 'bg.subtle', color: 'fg.muted', cursor: 'default', _hover: { borderColor: 'border.default' } },
  // Disabled reads as off in both themes: the sunken background and muted text of a locked field, the dashed edge and
  // the fade of what cannot be used (an opacity alone left a dark-theme field looking live).
  '&:disabled, &[data-disabled]': {
    bg: 'bg.subtle',
    color: 'fg.muted',
    borderStyle: 'dashed',
    opacity: 0.7,
    cursor: 'not-allowed',
    _hover: { borderColor: 'border.default' },
  },
} as const;

/** Inside a table cell or a dense row (the editor's lines, a pager): a cell is not a form card, so the box is low and tight. */
const inline = { h: '8', px: '2', borderRadius: 'md' } as const;

/** A bare control for the places that have no visible label of their own (table cells, filter bars). */
export const inputRecipe = defineRecipe({
  className: 'input',
  base: control,
  variants: {
    size: {
      md: {},
      sm: { h: '9', px: '2.5' },
      inline,
    },
    multiline: {
      true: { h: 'auto', minH: '20', py: '2', resize: 'vertical', lineHeight: '1.5' },
    },
    // Room on the right for a button drawn inside the box (the combobox's chevron).
    trailing: {
      true: { pr: '9' },
    },
  },
  defaultVariants: { size: 'md' },
});

export const fieldRecipe = defineSlotRecipe({
  className: 'field',
  slots: ['root', 'label', 'helperText', 'errorText', 'requiredIndicator'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5', minW: '0' },
    label: { fontSize: 'sm', fontWeight: '600', color: 'fg.default', '&[data-disabled]': { opacity: 0.6 } },
    helperText: { fontSize: 'xs', color: 'fg.muted' },
    errorText: { fontSize: 'xs', color: 'danger' },
    requiredIndicator: { color: 'danger', ms: '0.5' },
  },
  variants: {
    size: {
      md: {},
      // Dense panels (the template designer): smaller, quieter labels.
      sm: { root: { gap: '1' }, label: { fontSize: 'xs', color: 'fg.muted' } },
      inline: { root: { gap: '1' }, label: { fontSize: 'xs', color: 'fg.muted' } },
    },
  },
  defaultVariants: { size: 'md' },
});

const stepperBase = {
  position: 'absolute',
  right: '1px',
  h: 'calc(50% - 1px)',
  w: '6',
  display: 'grid',
  placeItems: 'center',
  color: 'fg.muted',
  cursor: 'pointer',
  borderLeftWidth: '1px',
  borderColor: 'border.default',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  _disabled: { opacity: 0.4, cursor: 'not-allowed' },
  '& svg': { w: '3', h: '3' },
} as const;

export const numberInputRecipe = defineSlotRecipe({
  className: 'numberInput',
  slots: ['root', 'control', 'input', 'incrementTrigger', 'decrementTrigger', 'unit'],
  base: {
    root: { position: 'relative', w: 'full', minW: '0' },
    control: { position: 'relative', display: 'flex', alignItems: 'stretch', w: 'full' },
    input: { ...control, textAlign: 'right', fontVariantNumeric: 'tabular-nums', pr: '8' },
    incrementTrigger: { ...stepperBase, top: '1px', borderTopRightRadius: 'lg' },
    decrementTrigger: { ...stepperBase, bottom: '1px', borderBottomRightRadius: 'lg' },
    unit: {
      position: 'absolute',
      right: '8',
      top: '50%',
      transform: 'translateY(-50%)',
      fontSize: 'xs',
      color: 'fg.subtle',
      pointerEvents: 'none',
    },
  },
  variants: {
    size: {
      md: {},
      sm: { input: { h: '9', pl: '2.5' } },
      inline: { input: { ...inline, pr: '8' } },
    },
    withUnit: { true: { input: { pr: '14' } } },
  },
  defaultVariants: { size: 'md' },
});

export const selectRecipe = defineSlotRecipe({
  className: 'select',
  slots: [
    'root',
    'control',
    'trigger',
    'valueText',
    'indicator',
    'positioner',
    'content',
    'search',
    'searchIcon',
    'searchInput',
    'list',
    'empty',
    'item',
    'itemText',
    'itemIndicator',
  ],
  base: {
    root: { position: 'relative', w: 'full', minW: '0' },
    control: { position: 'relative', w: 'full' },
    trigger: {
      ...control,
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: '2',
      textAlign: 'left',
      cursor: 'pointer',
      '&[data-placeholder-shown]': { color: 'fg.subtle' },
      _focusVisible: control._focusVisible,
    },
    valueText: { flex: '1', minW: '0', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    indicator: { color: 'fg.muted', flexShrink: 0, transition: 'transform 0.15s', '&[data-state=open]': { transform: 'rotate(180deg)' } },
    // Ark copies the content's z-index onto its positioner: above dialogs, which a select often sits in.
    content: {
      zIndex: 'tooltip',
      bg: 'bg.surface',
      color: 'fg.default',
      borderWidth: '1px',
      borderColor: 'border.default',
      borderRadius: 'lg',
      boxShadow: 'overlay',
      p: '1',
      maxH: 'min(320px, var(--available-height))',
      overflowY: 'auto',
      minW: 'var(--reference-width)',
      outline: 'none',
      '&[data-state=closed]': { display: 'none' },
      // A long list: the search field stays on top while the options scroll under it, and an option scrolled to
      // by the arrows is never hidden behind it.
      '&[data-searchable]': { pt: '0', minW: 'max(var(--reference-width), 16rem)', scrollPaddingTop: '12' },
    },
    search: {
      position: 'sticky',
      top: '0',
      zIndex: 1,
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      mx: '-1',
      mb: '1',
      px: '3',
      bg: 'bg.surface',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      color: 'fg.muted',
      _focusWithin: { color: 'accent.default', borderColor: 'accent.default' },
    },
    searchIcon: { flexShrink: 0 },
    searchInput: {
      flex: '1',
      minW: '0',
      h: '10',
      bg: 'transparent',
      color: 'fg.default',
      fontSize: 'sm',
      outline: 'none',
      _placeholder: { color: 'fg.subtle' },
    },
    list: { outline: 'none' },
    // Kept in the page while empty (a live region must exist before it speaks), but takes no room then.
    empty: { px: '2.5', py: '2', fontSize: 'sm', color: 'fg.muted', '&:empty': { p: '0' } },
    item: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: '2',
      px: '2.5',
      py: '2',
      borderRadius: 'md',
      fontSize: 'sm',
      cursor: 'pointer',
      '&[data-highlighted]': { bg: 'bg.subtle' },
      '&[data-state=checked]': { fontWeight: '600', color: 'accent.fg' },
      '&[data-disabled]': { opacity: 0.5, cursor: 'not-allowed' },
    },
    itemText: { flex: '1' },
    itemIndicator: { color: 'accent.default', '& svg': { w: '4', h: '4' } },
  },
  variants: {
    size: {
      md: {},
      sm: { trigger: { h: '9', px: '2.5' } },
      inline: { trigger: inline },
    },
  },
  defaultVariants: { size: 'md' },
});

export const checkboxRecipe = defineSlotRecipe({
  className: 'checkbox',
  slots: ['root', 'control', 'indicator', 'label'],
  base: {
    root: {
      display: 'inline-flex',
      alignItems: 'center',
      gap: '2',
      minH: '9',
      fontSize: 'sm',
      cursor: 'pointer',
      userSelect: 'none',
      '&[data-disabled]': { opacity: 0.55, cursor: 'not-allowed' },
    },
    // Clicks go through the drawn box to the label, which toggles the real (visually hidden) checkbox.
    control: {
      pointerEvents: 'none',
      w: '4.5',
      h: '4.5',
      flexShrink: 0,
      display: 'grid',
      placeItems: 'center',
      borderRadius: 'sm',
      borderWidth: '1.5px',
      borderColor: 'border.strong',
      bg: 'bg.surface',
      color: 'fg.onAccent',
      transition: 'background 0.1s, border-color 0.1s',
      '&[data-state=checked], &[data-state=indeterminate]': { bg: 'accent.solid', borderColor: 'accent.solid' },
      '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
      '&[data-invalid]': { borderColor: 'danger' },
      '& svg': { w: '3.5', h: '3.5' },
    },
    indicator: {},
    label: {},
  },
});
