import { menuLandmark } from '../../../components/ui/menu-landmark';
import Divider from '@mui/material/Divider';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { MENU_LABELS, type FileMenuAction } from '../file-menu-actions';

/** The per-file context menu. */
export function FileMenu({
  anchor,
  fileName,
  actions,
  onSelect,
  onClose,
}: {
  anchor: HTMLElement | null;
  fileName: string;
  actions: FileMenuAction[];
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
        <MenuItem key={a} onClick={() => onSelect(a)}>
          {MENU_LABELS[a]}
        </MenuItem>,
      ])}
    </Menu>
  );
}
