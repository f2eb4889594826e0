import { menuLandmark } from '../../components/ui/menu-landmark';
import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MoreVert from '@mui/icons-material/MoreVert';
import { Link as RouterLink } from 'react-router-dom';

/** Signed out: Login and Sign Up buttons on wide screens, an icon menu on small ones. */
export function GuestMenu() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  if (wide) {
    return (
      <>
        <Button color="inherit" component={RouterLink} to="/login">
          Login
        </Button>
        <Button color="inherit" component={RouterLink} to="/register">
          Sign Up
        </Button>
      </>
    );
  }
  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Login or sign up"
        aria-haspopup="menu"
        aria-controls={anchor ? 'guest-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVert />
      </IconButton>
      <Menu
        id="guest-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        slotProps={{ root: menuLandmark('Sign in options') }}
      >
        <MenuItem component={RouterLink} to="/login" onClick={close}>
          Login
        </MenuItem>
        <MenuItem component={RouterLink} to="/register" onClick={close}>
          Sign Up
        </MenuItem>
      </Menu>
    </>
  );
}
