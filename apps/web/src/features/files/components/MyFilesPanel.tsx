import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PANEL_MENU } from '../file-menu-actions';
import { FileManager } from './FileManager';

/** The side drawer's MyFiles panel: the same list, with open, download, rename, delete, delete all. */
export function MyFilesPanel() {
  return (
    <Box component="section" aria-labelledby="my-files-panel-title" sx={{ py: 1 }}>
      <Typography id="my-files-panel-title" variant="subtitle2" component="h2" sx={{ px: 1 }}>
        My Files
      </Typography>
      <FileManager menu={PANEL_MENU} dense />
    </Box>
  );
}
