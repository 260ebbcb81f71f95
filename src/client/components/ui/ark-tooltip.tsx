import type { ReactElement, ReactNode, Ref } from 'react';
import { Portal, Tooltip as ArkTooltip } from '@ark-ui/react';
import { tooltip } from '../../../../styled-system/recipes';

export interface TooltipProps {
  label: ReactNode;
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'left' | 'right';
}

/** Ark's tooltip, styled once (downloaded by tooltip.tsx): opens on hover and on keyboard focus of its trigger. */
export function ArkTooltipBox({
  label,
  children,
  placement = 'bottom',
  defaultOpen,
  triggerRef,
}: TooltipProps & { defaultOpen?: boolean; triggerRef?: Ref<HTMLElement> }) {
  return (
    <ArkTooltip.Root openDelay={250} closeDelay={0} positioning={{ placement }} defaultOpen={defaultOpen} lazyMount unmountOnExit>
      <ArkTooltip.Trigger asChild ref={triggerRef as Ref<HTMLButtonElement>}>
        {children}
      </ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={tooltip().content}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
