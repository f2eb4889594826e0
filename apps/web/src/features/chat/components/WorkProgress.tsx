import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ProgressEvent } from '@inkwell/contract';

/** "part 12 of 87, about 3 min left": what long work shows under its step while it runs. */
export function describeProgress(p: ProgressEvent): string {
  const parts: string[] = [];
  if (p.total > 0) parts.push(`part ${Math.min(p.done + 1, p.total)} of ${p.total}`);
  if (p.eta_s !== null && p.eta_s > 0 && p.done < p.total)
    parts.push(`about ${duration(p.eta_s)} left`);
  const line = parts.join(', ');
  const stage = p.stage.charAt(0).toUpperCase() + p.stage.slice(1);
  return line ? `${stage}: ${line}` : `${stage}…`;
}

export function describeQueue(p: ProgressEvent): string | null {
  if (p.queued_ahead <= 0) return null;
  return p.queued_ahead === 1
    ? '1 request of others goes first'
    : `${p.queued_ahead} requests of others go first`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const h = Math.floor(seconds / 3600);
  return `${h} h ${Math.round((seconds - h * 3600) / 60)} min`;
}

/** The progress bar, its text, the queue position and Cancel, inside a running step's message. */
export function WorkProgress({
  progress,
  onCancel,
  label,
}: {
  progress: ProgressEvent | null;
  onCancel: () => void;
  /** What the work is, for the bar's accessible name. */
  label: string;
}) {
  const determinate = progress !== null && progress.total > 0;
  const value = determinate ? (100 * progress.done) / progress.total : undefined;
  const text = progress ? describeProgress(progress) : 'Starting…';
  const queue = progress ? describeQueue(progress) : null;
  return (
    <Box sx={{ mt: 1, minWidth: { xs: 200, sm: 320 } }}>
      <LinearProgress
        variant={determinate ? 'determinate' : 'indeterminate'}
        value={value}
        aria-label={`Progress of ${label}`}
        aria-valuetext={text}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="caption" component="p" color="text.secondary">
            {text}
          </Typography>
          {queue && (
            <Typography variant="caption" component="p" color="text.secondary">
              {queue}
            </Typography>
          )}
        </Box>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}
