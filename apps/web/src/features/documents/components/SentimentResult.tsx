import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SentimentLabel, SentimentResponse } from '@inkwell/contract';
import { ColumnPicker } from './ColumnPicker';

const LABELS: SentimentLabel[] = ['positive', 'neutral', 'negative'];
const COLORS: Record<SentimentLabel, string> = {
  positive: '#2e7d32',
  neutral: '#757575',
  negative: '#c62828',
};
const MAX_ROWS = 100;

/** The column(s) read, for the heading (bars are plain CSS, no chart library). */
function columnsText(result: SentimentResponse): string {
  const sheets = result.columns ?? [];
  if (sheets.length > 1) {
    return ` · ${sheets.map((c) => `sheet “${c.sheet}”, column “${c.column}”`).join('; ')}`;
  }
  return result.column ? ` · column “${result.column}”` : '';
}

/**
 * Overall score, a bar per label, a table of the items; for a table, the column read, which
 * `onColumn` (when given) lets the user change.
 */
export function SentimentResult({
  result,
  onColumn,
}: {
  result: SentimentResponse;
  onColumn?: (column: string) => void;
}) {
  const bySheet = (result.columns?.length ?? 0) > 1;
  const counts = LABELS.map((l) => result.items.filter((i) => i.label === l).length);
  const total = Math.max(1, result.items.length);
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="p">
        {`Overall: ${result.overall.label} (${result.overall.score.toFixed(2)})`}
        {columnsText(result)}
      </Typography>
      {onColumn && result.column && (result.column_choices?.length ?? 0) > 1 && (
        <ColumnPicker column={result.column} choices={result.column_choices!} onColumn={onColumn} />
      )}
      <Box
        component="ul"
        aria-label="Sentiment distribution"
        sx={{ listStyle: 'none', p: 0, my: 1 }}
      >
        {LABELS.map((label, i) => (
          <Box component="li" key={label} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="body2" sx={{ width: 72 }}>
              {label}
            </Typography>
            <Box sx={{ flexGrow: 1, bgcolor: 'action.hover', height: 12, borderRadius: 1 }}>
              <Box
                sx={{
                  width: `${(counts[i]! / total) * 100}%`,
                  bgcolor: COLORS[label],
                  height: '100%',
                  borderRadius: 1,
                }}
              />
            </Box>
            <Typography variant="body2" sx={{ width: 40, textAlign: 'right' }}>
              {counts[i]}
            </Typography>
          </Box>
        ))}
      </Box>
      {result.items.length > 0 && (
        <Box
          sx={{ maxHeight: 320, overflow: 'auto' }}
          tabIndex={0}
          role="region"
          // Named by its column too: two results in the conversation are two distinct regions.
          aria-label={`Sentiment by item${result.column ? ` in column “${result.column}”` : ''}`}
        >
          <Table size="small">
            <TableHead>
              <TableRow>
                {bySheet && <TableCell>Sheet</TableCell>}
                <TableCell>Text</TableCell>
                <TableCell>Sentiment</TableCell>
                <TableCell align="right">Score</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.items.slice(0, MAX_ROWS).map((item, i) => (
                <TableRow key={i}>
                  {bySheet && <TableCell>{item.sheet}</TableCell>}
                  <TableCell>{item.text}</TableCell>
                  <TableCell>{item.label}</TableCell>
                  <TableCell align="right">{item.score.toFixed(2)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {result.items.length > MAX_ROWS && (
        <Typography variant="body2">{`First ${MAX_ROWS} of ${result.items.length} items.`}</Typography>
      )}
    </Box>
  );
}
