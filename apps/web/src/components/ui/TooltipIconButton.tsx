import type { ReactNode } from 'react';
import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/**
 * An icon button with a visible tooltip and an accessible name. The tooltip stays inside the
 * page (no portal, so it is within a landmark), and the button is wrapped in a span so the
 * tooltip still works while the button is disabled.
 */
export function TooltipIconButton({
  title,
  label = title,
  children,
  ...button
}: {
  /** The tooltip text. */
  title: string;
  /** The accessible name, when it differs from the tooltip. */
  label?: string;
  children: ReactNode;
} & Omit<IconButtonProps, 'title' | 'children' | 'aria-label'>) {
  return (
    <Tooltip slotProps={{ popper: { disablePortal: true } }} title={title}>
      <span>
        <IconButton aria-label={label} {...button}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}
