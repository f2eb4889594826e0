import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';

export function LogoutModal({ open }: { open: boolean }) {
  return (
    <Dialog open={open} aria-labelledby="logout-title" disableEscapeKeyDown>
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 3, px: 4 }}>
        <CircularProgress size={28} aria-hidden />
        <Typography id="logout-title" role="status">
          Logging out...
        </Typography>
      </DialogContent>
    </Dialog>
  );
}
