import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { formatSize } from './FileList';

/** Storage used of the quota (100 MB). */
export function StorageUsage({ used, quota }: { used: number; quota: number }) {
  const percent = quota > 0 ? Math.min(100, (used / quota) * 100) : 0;
  const text = `${formatSize(used)} of ${Math.round(quota / 1024 / 1024)} MB used`;
  return (
    <Box sx={{ my: 1 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label="Storage used"
        aria-valuetext={text}
      />
      <Typography variant="caption" color="text.secondary">
        {text}
      </Typography>
    </Box>
  );
}
