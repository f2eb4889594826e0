import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { useUser } from '../../features/account/api/get-user';

/**
 * "Admin" in the account menu, for operators only. Loaded with the menu's first opening (the
 * profile fetch and its schema stay out of the first chunk); the server decides on every call.
 */
export function AdminMenuItem({ onChoose }: { onChoose: () => void }) {
  const { data } = useUser();
  if (data?.role !== 'operator') return null;
  return (
    <MenuItem onClick={onChoose}>
      <ListItemIcon>
        <AdminPanelSettings fontSize="small" />
      </ListItemIcon>
      Admin
    </MenuItem>
  );
}
