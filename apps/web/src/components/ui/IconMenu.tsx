import { useState, type ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import { menuLandmark } from './menu-landmark';

/**
 * An icon button that opens a menu, wired for assistive technology (haspopup, controls,
 * expanded, a named popup landmark). `children` gets `close` so each item can close the menu.
 */
export function IconMenu({
  id,
  buttonLabel,
  menuLabel,
  icon,
  children,
}: {
  id: string;
  buttonLabel: string;
  menuLabel: string;
  icon: ReactNode;
  children: (close: () => void) => ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={buttonLabel}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {icon}
      </IconButton>
      <Menu
        id={id}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        slotProps={{ root: menuLandmark(menuLabel) }}
      >
        {children(close)}
      </Menu>
    </>
  );
}
