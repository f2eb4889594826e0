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
const loadLogoutModal = () => import('./LogoutModal');
const LogoutModal = lazy(() => loadLogoutModal().then((m) => ({ default: m.LogoutModal })));
// Loads with the menu: whether the user is an operator needs the profile.
const AdminMenuItem = lazy(() =>
  import('./AdminMenuItem').then((m) => ({ default: m.AdminMenuItem })),
);

/** Signed in: the first name and the account menu (My Files, Account, [Admin,] Logout). */
export function AccountMenu({ firstName }: { firstName: string }) {
  const navigate = useNavigate();
  const { openFileDrawer } = useUiState();
  const { loggingOut, start } = useLogoutFlow();
  const logoutShown = useHasBeenTrue(loggingOut);
  const items: { label: string; icon: ReactNode; run: () => void }[] = [
    { label: 'My Files', icon: <FolderOpen fontSize="small" />, run: openFileDrawer },
    { label: 'Account', icon: <Person fontSize="small" />, run: () => navigate('/account') },
    {
      label: 'Logout',
      icon: <Logout fontSize="small" />,
      // The modal's code first: its 2 s count from when it can show (a slow chunk ate them).
      run: () => void loadLogoutModal().then(start, start),
    },
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
          items.flatMap((item) => [
            // Admin, for operators, comes just before Logout.
            ...(item.label === 'Logout'
              ? [
                  <Suspense key="admin" fallback={null}>
                    <AdminMenuItem
                      onChoose={() => {
                        close();
                        navigate('/admin');
                      }}
                    />
                  </Suspense>,
                ]
              : []),
            <MenuItem
              key={item.label}
              onClick={() => {
                close();
                item.run();
              }}
            >
              <ListItemIcon>{item.icon}</ListItemIcon>
              {item.label}
            </MenuItem>,
          ])
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
