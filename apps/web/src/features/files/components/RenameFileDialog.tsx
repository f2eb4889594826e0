import { useRef, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { renameFileRequestSchema } from '@inkwell/contract';
import { FormDialog } from '../../../components/ui/FormDialog';

export function splitName(fileName: string): { base: string; ext: string } {
  const dot = fileName.lastIndexOf('.');
  return dot > 0
    ? { base: fileName.slice(0, dot), ext: fileName.slice(dot) }
    : { base: fileName, ext: '' };
}

/**
 * 'Rename File': the new name without extension; the original extension is a fixed suffix. The
 * field opens focused with the name selected, as in a desktop file manager: typing replaces it.
 */
export function RenameFileDialog({
  fileName,
  busy,
  serverError,
  onRename,
  onClose,
}: {
  fileName: string;
  busy: boolean;
  serverError?: string;
  onRename: (newName: string) => void;
  onClose: () => void;
}) {
  const { base, ext } = splitName(fileName);
  const [name, setName] = useState(base);
  const [error, setError] = useState('');
  const shown = error || serverError || '';
  const input = useRef<HTMLInputElement>(null);

  function submit() {
    const parsed = renameFileRequestSchema.safeParse({ new_name: name });
    if (!parsed.success) setError(parsed.error.issues[0]?.message ?? 'Invalid name');
    else onRename(parsed.data.new_name);
  }

  return (
    <FormDialog
      id="rename"
      title="Rename File"
      onClose={onClose}
      initialFocus={input}
      primary={{ label: 'Rename', disabled: busy || name.trim() === base, onClick: submit }}
    >
      <TextField
        id="rename-name"
        label="New name"
        value={name}
        inputRef={input}
        fullWidth
        margin="normal"
        error={Boolean(shown)}
        helperText={shown || ' '}
        onChange={(e) => {
          setName(e.target.value);
          setError('');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') submit();
        }}
        slotProps={{
          input: {
            endAdornment: ext ? <InputAdornment position="end">{ext}</InputAdornment> : null,
          },
        }}
      />
    </FormDialog>
  );
}
