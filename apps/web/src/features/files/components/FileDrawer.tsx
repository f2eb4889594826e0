import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import type { FileItem } from '@inkwell/contract';
import type { FileDocumentAction, UnavailableActions } from '../file-menu-actions';

const FileDrawerContent = lazy(() =>
  import('./FileDrawerContent').then((m) => ({ default: m.FileDrawerContent })),
);

/** The right-side file drawer, opened from the header's "My Files" (signed in only). */
export function FileDrawer({
  open,
  onClose,
  unavailable,
  onDocumentAction,
}: {
  open: boolean;
  onClose: () => void;
  /** Actions that cannot run now (no model), with the reason shown in the menu. */
  unavailable?: UnavailableActions;
  onDocumentAction?: (action: FileDocumentAction, file: FileItem) => void;
}) {
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-labelledby': 'file-drawer-title',
        } as object,
      }}
    >
      <Toolbar />
      <Box sx={{ width: { xs: 300, sm: 360 }, p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography id="file-drawer-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            My Files
          </Typography>
          <IconButton aria-label="Close My Files" onClick={onClose}>
            <Close />
          </IconButton>
        </Box>
        {open && (
          <Suspense fallback={<CircularProgress size={24} aria-label="Loading files" />}>
            <FileDrawerContent
              unavailable={unavailable}
              onDocumentAction={(action, file) => {
                onClose();
                onDocumentAction?.(action, file);
              }}
            />
          </Suspense>
        )}
      </Box>
    </Drawer>
  );
}
