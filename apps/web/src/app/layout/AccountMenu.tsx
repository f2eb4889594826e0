import { useState, type ReactNode } from 'react';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccountCircle from '@mui/icons-material/AccountCircle';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Logout from '@mui/icons-material/Logout';
import Person from '@mui/icons-material/Person';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { IconMenu } from '../../components/ui/IconMenu';
import { apiRequest } from '../../lib/api-client';
import { useUiState } from '../ui-state';

/** Signed in: the first name and the account menu (My Files, Account, [Admin,] Logout). */
export function AccountMenu({ firstName, onLogout }: { firstName: string; onLogout: () => void }) {
  const navigate = useNavigate();
  const { openFileDrawer } = useUiState();
  const [menuOpened, setMenuOpened] = useState(false);
  // Whether Admin is listed needs the profile, fetched with the menu's first opening. The items
  // show once it is known (or failed): an Admin item arriving later would push Logout down under
  // a pointer already on its way to it.
  const role = useQuery({
    queryKey: ['user', 'role'],
    // Read by hand, not with the contract's schema: the menu is part of what `/` loads to render.
    queryFn: async () => {
      const user = await apiRequest<{ role?: unknown } | null>('user');
      return user?.role === 'operator' ? 'operator' : 'user';
    },
    enabled: menuOpened,
  });
  const roleKnown = !role.isPending || role.failureCount > 0;
  const items: { label: string; icon: ReactNode; run: () => void }[] = [
    { label: 'My Files', icon: <FolderOpen fontSize="small" />, run: openFileDrawer },
    { label: 'Account', icon: <Person fontSize="small" />, run: () => navigate('/account') },
    ...(role.data === 'operator'
      ? [
          {
            label: 'Admin',
            icon: <AdminPanelSettings fontSize="small" />,
            run: () => navigate('/admin'),
          },
        ]
      : []),
    { label: 'Logout', icon: <Logout fontSize="small" />, run: onLogout },
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
        onOpen={() => setMenuOpened(true)}
      >
        {(close) =>
          roleKnown
            ? items.map((item) => (
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
            : [
                <MenuItem key="loading" disabled>
                  Loading…
                </MenuItem>,
              ]
        }
      </IconMenu>
    </>
  );
}
