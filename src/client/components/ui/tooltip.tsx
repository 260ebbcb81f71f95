import type { ReactElement, ReactNode } from 'react';
import { Portal, Tooltip as ArkTooltip } from '@ark-ui/react';
import { tooltipContent } from './tooltip-style';

/** Ark's tooltip, styled once: opens on hover and on keyboard focus of its trigger. */
export function Tooltip({
  label,
  children,
  placement = 'bottom',
}: {
  label: ReactNode;
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'left' | 'right';
}) {
  return (
    <ArkTooltip.Root openDelay={250} closeDelay={0} positioning={{ placement }} lazyMount unmountOnExit>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={tooltipContent}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
