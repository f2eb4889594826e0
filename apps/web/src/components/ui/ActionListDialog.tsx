import DialogContentText from '@mui/material/DialogContentText';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { FormDialog } from './FormDialog';

/** A dialog that names its subject (a file, an address) and offers a list of actions on it. */
export function ActionListDialog<K extends string>({
  id,
  title,
  subject,
  listLabel,
  choices,
  onSelect,
  onClose,
}: {
  id: string;
  title: string;
  subject: string;
  listLabel: string;
  choices: readonly { key: K; label: string }[];
  onSelect: (key: K) => void;
  onClose: () => void;
}) {
  return (
    <FormDialog id={id} title={title} onClose={onClose}>
      <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{subject}</DialogContentText>
      <List aria-label={listLabel}>
        {choices.map((c) => (
          <ListItem key={c.key} disablePadding>
            <ListItemButton onClick={() => onSelect(c.key)}>
              <ListItemText primary={c.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </FormDialog>
  );
}
