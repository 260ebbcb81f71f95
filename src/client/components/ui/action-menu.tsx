import { cloneElement, isValidElement, useState, type ComponentType, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { iconButton } from '../../../../styled-system/recipes';
import { ChunkErrorNotice, usePartFailure } from '../page-loading';
import { arkPart, useArkPart } from '../../lib/lazy-page';

// Ark's menu machine is most of a list page's or the editor's menu code, and no menu is open when a page
// first draws. Its trigger draws at once; the menu itself downloads when the browser is idle, on hover or focus, and
// at the latest on the first click, which then opens it.
const ark = arkPart(
  () => import('./ark-action-menu'),
  (m) => m.ArkActionMenu,
);

/** The "⋮" button: the theme's one round icon button. */
export const menuTrigger = iconButton();

export type MenuEntry =
  | { value: string; label: ReactNode; onSelect: () => void; disabled?: boolean; tone?: 'danger'; hint?: string }
  | { separator: true; value: string };

export interface ActionMenuProps {
  label: string;
  entries: MenuEntry[];
  /** The button that opens the menu, instead of the "⋮" one. */
  trigger?: ReactNode;
}

export const DotsIcon = () => (
  <svg width={18} height={18} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <circle cx="12" cy="5" r="1.8" />
    <circle cx="12" cy="12" r="1.8" />
    <circle cx="12" cy="19" r="1.8" />
  </svg>
);

type TriggerProps = {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  'aria-label'?: string;
};

/** The trigger before the menu's code is there: the same button, which fetches it and asks for it open. */
function PendingTrigger({ label, trigger, onOpen }: { label: string; trigger?: ReactNode; onOpen?: () => void }) {
  const preload = () => void ark.preload();
  const props: TriggerProps = {
    onClick: (event) => {
      // Safari does not focus a clicked button: focused, its notice goes with Escape as in the other browsers.
      event.currentTarget.focus();
      onOpen?.();
    },
    onPointerEnter: preload,
    onFocus: preload,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    'aria-label': label,
  };
  if (isValidElement(trigger)) return cloneElement(trigger as ReactElement<TriggerProps>, props);
  return (
    <button type="button" className={menuTrigger} title={label} data-state="closed" {...props}>
      <DotsIcon />
    </button>
  );
}

/** A "⋮" button (or the given `trigger`) opening a list of actions: Ark's menu (keyboard, typeahead, Escape). */
export function ActionMenu(props: ActionMenuProps) {
  // The component itself, once downloaded and asked for: it then opens in the click's own render. Kept once chosen.
  const [Menu, setMenu] = useState<ComponentType<ActionMenuProps & { defaultOpen?: boolean }> | null>(null);
  const loaded = useArkPart(ark);
  const { failed, setFailed, download, holder } = usePartFailure();
  if (Menu) return <Menu {...props} defaultOpen />;
  // Clicked before the code came: it opens once there; if it cannot come, the part's notice says so (the page stays).
  const open = () => {
    if (loaded) return setMenu(() => loaded);
    setFailed(false);
    download(ark, { loaded: (component) => setMenu(() => component) });
  };
  return (
    // `display: contents`: the row or bar lays out the button as if nothing held it.
    <span style={{ display: 'contents' }} {...holder}>
      <PendingTrigger label={props.label} trigger={props.trigger} onOpen={open} />
      {failed && <ChunkErrorNotice part />}
    </span>
  );
}
