import { lazy, Suspense, useState, type ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { menuLandmark } from './menu-landmark';

// The popup loads on the first opening (the top bar's menus are in the first chunk).
const Menu = lazy(() => import('@mui/material/Menu'));

/**
 * An icon button that opens a menu, wired for assistive technology (haspopup, controls,
 * expanded, a named popup landmark). `children` gets `close` so each item can close the menu.
 */
export function IconMenu({
  id,
  buttonLabel,
  menuLabel,
  icon,
  onOpen,
  children,
}: {
  id: string;
  buttonLabel: string;
  menuLabel: string;
  icon: ReactNode;
  /** Called as the menu opens: the place to start loading what its items need. */
  onOpen?: () => void;
  children: (close: () => void) => ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const menuUsed = useHasBeenTrue(anchor !== null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={buttonLabel}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => {
          onOpen?.();
          setAnchor(e.currentTarget);
        }}
      >
        {icon}
      </IconButton>
      {menuUsed && (
        <Suspense fallback={null}>
          <Menu
            id={id}
            anchorEl={anchor}
            open={Boolean(anchor)}
            onClose={close}
            slotProps={{ root: menuLandmark(menuLabel) }}
          >
            {children(close)}
          </Menu>
        </Suspense>
      )}
    </>
  );
}
