import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { TRANSLATION_LANGUAGES } from '@inkwell/contract';

/** A select of the 27 translation languages (spec §9). */
export function LanguageSelect({
  id,
  label,
  value,
  onChange,
  emptyLabel,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Offer an empty choice with this label (e.g. 'Detect automatically'). */
  emptyLabel?: string;
}) {
  return (
    <TextField
      id={id}
      select
      fullWidth
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      required={!emptyLabel}
      margin="normal"
    >
      {emptyLabel && <MenuItem value="">{emptyLabel}</MenuItem>}
      {TRANSLATION_LANGUAGES.map((l) => (
        <MenuItem key={l} value={l}>
          {l}
        </MenuItem>
      ))}
    </TextField>
  );
}
