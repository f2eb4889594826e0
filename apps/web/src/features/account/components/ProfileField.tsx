import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PasswordField } from '../../../components/ui/PasswordField';

interface Props {
  label: string;
  value: string;
  type?: string;
  editing: boolean;
  /** Another field is being edited: only one at a time. */
  locked: boolean;
  saving: boolean;
  error?: string;
  /** The field changes only with the current password (the email): a second input asks for it. */
  confirmWithPassword?: boolean;
  passwordError?: string;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (value: string, currentPassword?: string) => void;
}

/** One profile field: Edit switches to an input; Save only when changed; Enter saves; Cancel restores. */
export function ProfileField(props: Props) {
  const {
    label,
    value,
    type = 'text',
    editing,
    locked,
    saving,
    error,
    confirmWithPassword,
  } = props;
  const [draft, setDraft] = useState(value);
  const [password, setPassword] = useState('');
  const changed = draft.trim() !== value;
  const ready = changed && (!confirmWithPassword || password !== '');
  const inputRef = useRef<HTMLInputElement>(null);
  // Keyboard users land in the input they chose to edit.
  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const save = () => {
    if (ready && !saving) props.onSave(draft.trim(), confirmWithPassword ? password : undefined);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    }
  };

  if (!editing) {
    return (
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', py: 1 }}>
        <FieldValue label={label} value={value} />
        <Button
          onClick={() => {
            setDraft(value);
            setPassword('');
            props.onEdit();
          }}
          disabled={locked}
          aria-label={`Edit ${label.toLowerCase()}`}
        >
          Edit
        </Button>
      </Stack>
    );
  }
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' }, py: 1 }}
    >
      <TextField
        label={label}
        type={type}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        error={Boolean(error)}
        helperText={error}
        inputRef={inputRef}
        fullWidth
        size="small"
      />
      {confirmWithPassword && (
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onKeyDown={onKeyDown}
          error={Boolean(props.passwordError)}
          helperText={props.passwordError}
          fullWidth
          size="small"
        />
      )}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={save} disabled={!ready || saving}>
          Save
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </Stack>
    </Stack>
  );
}

function FieldValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ overflowWrap: 'anywhere' }}>{value || '—'}</Typography>
    </Stack>
  );
}
