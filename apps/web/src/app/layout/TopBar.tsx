import AppBar from '@mui/material/AppBar';
import { Suspense } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import MenuIcon from '@mui/icons-material/Menu';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { useUiState } from '../ui-state';
import { AccountMenu } from './AccountMenu';
import { GuestMenu } from './GuestMenu';
import { ThemeToggle } from './ThemeToggle';
import { LazyLogoutModal, useLogoutFlow } from './use-logout-flow';

export function TopBar() {
  const { navOpen, toggleNav } = useUiState();
  const { isAuthenticated, firstName } = useSession();
  const logout = useLogoutFlow();
  const logoutShown = useHasBeenTrue(logout.loggingOut);
  return (
    <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 0.5, px: { xs: 1, sm: 2 } }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={navOpen ? 'Close menu' : 'Open menu'}
          aria-controls="side-drawer"
          aria-expanded={navOpen}
          onClick={toggleNav}
        >
          <MenuIcon />
        </IconButton>
        <Link
          component={RouterLink}
          to="/"
          variant="h6"
          underline="none"
          sx={{ color: 'inherit !important', fontWeight: 600, whiteSpace: 'nowrap' }}
        >
          Inkwell
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <ThemeToggle />
        {isAuthenticated ? (
          <AccountMenu firstName={firstName} onLogout={() => void logout.start()} />
        ) : (
          <GuestMenu />
        )}
      </Toolbar>
      {logoutShown && (
        <Suspense fallback={null}>
          <LazyLogoutModal open={logout.loggingOut} />
        </Suspense>
      )}
    </AppBar>
  );
}
