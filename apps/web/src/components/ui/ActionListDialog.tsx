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
  /** `unavailable`: the choice is shown disabled with this reason under its label. */
  choices: readonly { key: K; label: string; unavailable?: string }[];
  onSelect: (key: K) => void;
  onClose: () => void;
}) {
  return (
    <FormDialog id={id} title={title} onClose={onClose}>
      <DialogContentText sx={{ overflowWrap: 'anywhere' }}>{subject}</DialogContentText>
      <List aria-label={listLabel}>
        {choices.map((c) => (
          <ListItem key={c.key} disablePadding>
            {c.unavailable ? (
              // Full opacity: the greyed default would fail the contrast check; the label's colour
              // and the reason say it is unavailable.
              <ListItemButton disabled sx={{ '&.Mui-disabled': { opacity: 1 } }}>
                <ListItemText
                  primary={c.label}
                  secondary={c.unavailable}
                  slotProps={{ primary: { sx: { color: 'text.secondary' } } }}
                />
              </ListItemButton>
            ) : (
              <ListItemButton onClick={() => onSelect(c.key)}>
                <ListItemText primary={c.label} />
              </ListItemButton>
            )}
          </ListItem>
        ))}
      </List>
    </FormDialog>
  );
}
