import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { UrlAnalysisKind } from '../run-url-analysis';

const CHOICES: { kind: UrlAnalysisKind; label: string }[] = [
  { kind: 'accessibility', label: 'Accessibility Analysis' },
  { kind: 'seo', label: 'SEO Analysis' },
];

/** 'Select Action for URL': accessibility or SEO analysis of the address. */
export function SelectUrlActionDialog({
  url,
  onSelect,
  onClose,
}: {
  url: string;
  onSelect: (kind: UrlAnalysisKind) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open onClose={onClose} aria-labelledby="url-action-title" fullWidth maxWidth="xs">
      <DialogTitle id="url-action-title">Select Action for URL</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{url}</DialogContentText>
        <List aria-label="Analyses">
          {CHOICES.map((c) => (
            <ListItem key={c.kind} disablePadding>
              <ListItemButton onClick={() => onSelect(c.kind)}>
                <ListItemText primary={c.label} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
