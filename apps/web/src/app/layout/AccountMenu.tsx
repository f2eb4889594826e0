import { menuLandmark } from '../../components/ui/menu-landmark';
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import { useNavigate } from 'react-router-dom';
import { useUiState } from '../ui-state';
import { LogoutModal } from './LogoutModal';
import { useLogoutFlow } from './use-logout-flow';

/** Signed in: the first name and the account menu (My Files, Account, Logout). */
export function AccountMenu({ firstName }: { firstName: string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const { openFileDrawer } = useUiState();
  const { loggingOut, start } = useLogoutFlow();
  const close = () => setAnchor(null);

  return (
    <>
      {firstName && (
        <Typography
          component="span"
          sx={{
            ml: 1,
            maxWidth: { xs: 90, sm: 200 },
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {firstName}
        </Typography>
      )}
      <IconButton
        color="inherit"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-controls={anchor ? 'account-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountCircle />
      </IconButton>
      <Menu
        id="account-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        slotProps={{ root: menuLandmark('Account menu options') }}
      >
        <MenuItem
          onClick={() => {
            close();
            openFileDrawer();
          }}
        >
          <ListItemIcon>
            <FolderOpen fontSize="small" />
          </ListItemIcon>
          My Files
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            navigate('/account');
          }}
        >
          <ListItemIcon>
            <Person fontSize="small" />
          </ListItemIcon>
          Account
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            void start();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Logout
        </MenuItem>
      </Menu>
      <LogoutModal open={loggingOut} />
    </>
  );
}
