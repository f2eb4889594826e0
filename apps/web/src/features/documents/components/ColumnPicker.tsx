import { useId } from 'react';
import TextField from '@mui/material/TextField';

/**
 * The table column a sentiment analysis read, and the others it could read: choosing one runs
 * the analysis again on that column (POST /api/bulk-sentiment-analysis with `column`).
 */
export function ColumnPicker({
  column,
  choices,
  onColumn,
}: {
  column: string;
  choices: string[];
  onColumn: (column: string) => void;
}) {
  const id = useId();
  return (
    <TextField
      id={id}
      select
      size="small"
      label="Column analysed"
      value={column}
      onChange={(e) => {
        if (e.target.value !== column) onColumn(e.target.value);
      }}
      slotProps={{ select: { native: true } }}
      sx={{ mt: 1, minWidth: 200, maxWidth: '100%' }}
    >
      {choices.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </TextField>
  );
}
