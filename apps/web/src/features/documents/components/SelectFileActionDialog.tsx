import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import { ACTION_LABELS, DOCUMENT_ACTIONS, type DocumentAction } from '../document-actions';

/** 'Select Action for file': what to do with a file picked from the chat's upload button. */
export function SelectFileActionDialog({
  fileName,
  onSelect,
  onClose,
}: {
  fileName: string;
  onSelect: (action: DocumentAction) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open onClose={onClose} aria-labelledby="file-action-title" fullWidth maxWidth="xs">
      <DialogTitle id="file-action-title">Select Action for file</DialogTitle>
      <DialogContent>
        <DialogContentText>{fileName}</DialogContentText>
        <List aria-label="Actions">
          {DOCUMENT_ACTIONS.map((a) => (
            <ListItem key={a} disablePadding>
              <ListItemButton onClick={() => onSelect(a)}>
                <ListItemText primary={ACTION_LABELS[a]} />
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
