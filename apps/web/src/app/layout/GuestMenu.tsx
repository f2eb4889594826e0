import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import MoreVert from '@mui/icons-material/MoreVert';
import { Link as RouterLink } from 'react-router-dom';
import { IconMenu } from '../../components/ui/IconMenu';

/** Signed out: Login and Sign Up buttons on wide screens, an icon menu on small ones. */
export function GuestMenu() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'));

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
    <IconMenu
      id="guest-menu"
      buttonLabel="Login or sign up"
      menuLabel="Sign in options"
      icon={<MoreVert />}
    >
      {(close) => [
        <MenuItem key="login" component={RouterLink} to="/login" onClick={close}>
          Login
        </MenuItem>,
        <MenuItem key="register" component={RouterLink} to="/register" onClick={close}>
          Sign Up
        </MenuItem>,
      ]}
    </IconMenu>
  );
}
