import { menuLandmark } from '../../../components/ui/menu-landmark';
import Divider from '@mui/material/Divider';
import Menu from '@mui/material/Menu';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { MENU_LABELS, type FileMenuAction, type UnavailableActions } from '../file-menu-actions';

/** The per-file context menu. */
export function FileMenu({
  anchor,
  fileName,
  actions,
  unavailable = {},
  onSelect,
  onClose,
}: {
  anchor: HTMLElement | null;
  fileName: string;
  actions: FileMenuAction[];
  /** Entries shown disabled, with the reason under their label. */
  unavailable?: UnavailableActions;
  onSelect: (action: FileMenuAction) => void;
  onClose: () => void;
}) {
  return (
    <Menu
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
      slotProps={{
        root: menuLandmark('File actions'),
        list: { 'aria-label': `Actions for ${fileName}` },
      }}
    >
      {actions.flatMap((a) => [
        a === 'download' || a === 'deleteAll' ? <Divider key={`${a}-divider`} /> : null,
        unavailable[a] ? (
          <MenuItem key={a} disabled sx={{ '&.Mui-disabled': { opacity: 1 } }}>
            <ListItemText
              primary={MENU_LABELS[a]}
              secondary={unavailable[a]}
              slotProps={{
                primary: { sx: { color: 'text.secondary' } },
                secondary: { sx: { maxWidth: 260, whiteSpace: 'normal' } },
              }}
            />
          </MenuItem>
        ) : (
          <MenuItem key={a} onClick={() => onSelect(a)}>
            {MENU_LABELS[a]}
          </MenuItem>
        ),
      ])}
    </Menu>
  );
}
