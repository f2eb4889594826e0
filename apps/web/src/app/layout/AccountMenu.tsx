import { lazy, Suspense, type ReactNode } from 'react';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import { useNavigate } from 'react-router-dom';
import { IconMenu } from '../../components/ui/IconMenu';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { useUiState } from '../ui-state';
import { useLogoutFlow } from './use-logout-flow';

// Loads on the first logout, outside what `/` loads to render.
const LogoutModal = lazy(() => import('./LogoutModal').then((m) => ({ default: m.LogoutModal })));

/** Signed in: the first name and the account menu (My Files, Account, Logout). */
export function AccountMenu({ firstName }: { firstName: string }) {
  const navigate = useNavigate();
  const { openFileDrawer } = useUiState();
  const { loggingOut, start } = useLogoutFlow();
  const logoutShown = useHasBeenTrue(loggingOut);
  const items: { label: string; icon: ReactNode; run: () => void }[] = [
    { label: 'My Files', icon: <FolderOpen fontSize="small" />, run: openFileDrawer },
    { label: 'Account', icon: <Person fontSize="small" />, run: () => navigate('/account') },
    { label: 'Logout', icon: <Logout fontSize="small" />, run: () => void start() },
  ];

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
      <IconMenu
        id="account-menu"
        buttonLabel="Account menu"
        menuLabel="Account menu options"
        icon={<AccountCircle />}
      >
        {(close) =>
          items.map((item) => (
            <MenuItem
              key={item.label}
              onClick={() => {
                close();
                item.run();
              }}
            >
              <ListItemIcon>{item.icon}</ListItemIcon>
              {item.label}
            </MenuItem>
          ))
        }
      </IconMenu>
      {logoutShown && (
        <Suspense fallback={null}>
          <LogoutModal open={loggingOut} />
        </Suspense>
      )}
    </>
  );
}
