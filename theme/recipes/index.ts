import { checkboxRecipe, fieldRecipe, inputRecipe, numberInputRecipe, selectRecipe } from './field';
import { iconButtonRecipe } from './icon-button';
import { dialogRecipe } from './dialog';
import { tabsRecipe } from './tabs';
import { radioGroupRecipe } from './radio-group';
import { comboboxRecipe } from './combobox';
import { menuRecipe } from './menu';
import { tooltipRecipe } from './tooltip';

/** Every look of the UI kit, one recipe per component (src/client/components/ui wraps each once). */
export const recipes = { input: inputRecipe, iconButton: iconButtonRecipe };

export const slotRecipes = {
  field: fieldRecipe,
  numberInput: numberInputRecipe,
  select: selectRecipe,
  checkbox: checkboxRecipe,
  dialog: dialogRecipe,
  tabs: tabsRecipe,
  radioGroup: radioGroupRecipe,
  combobox: comboboxRecipe,
  menu: menuRecipe,
  tooltip: tooltipRecipe,
};

// The kit's variants are chosen at run time (size, a unit, a placement): generate them all, not only what static
// analysis sees.
export const staticRecipes: Record<string, '*'[]> = Object.fromEntries(
  [...Object.keys(recipes), ...Object.keys(slotRecipes)].map((name) => [name, ['*']]),
);
