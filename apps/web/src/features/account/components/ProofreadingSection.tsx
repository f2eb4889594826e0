import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { EnglishDialect, UserResponse } from '@inkwell/contract';
import { useUpdateUser } from '../api/update-user';

/** What each setting means to a writer. */
const OPTIONS: { value: EnglishDialect; label: string }[] = [
  { value: 'auto', label: 'Detect from each text' },
  { value: 'american', label: 'American English' },
  { value: 'british', label: 'British English' },
  { value: 'australian', label: 'Australian English' },
  { value: 'canadian', label: 'Canadian English' },
  { value: 'indian', label: 'Indian English' },
];

export const PROOFREADING_MESSAGES = {
  failed: 'Error saving your proofreading setting',
} as const;

/** The English proofreading checks against: saved as soon as it is chosen. */
export function ProofreadingSection({
  user,
  onSaved,
}: {
  user: UserResponse;
  onSaved: (message: string) => void;
}) {
  const update = useUpdateUser();
  const [error, setError] = useState<string>();
  return (
    <TextField
      select
      fullWidth
      label="English for proofreading"
      value={user.english_dialect}
      disabled={update.isPending}
      error={error !== undefined}
      helperText={
        error ??
        'Spellings such as colour or color, organise or organize are checked against this English.'
      }
      onChange={(e) => {
        setError(undefined);
        update.mutate(
          { english_dialect: e.target.value as EnglishDialect },
          {
            onSuccess: (data) => onSaved(data.message),
            onError: () => setError(PROOFREADING_MESSAGES.failed),
          },
        );
      }}
    >
      {OPTIONS.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
