import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import type { FileItem } from '@inkwell/contract';
import { visuallyHidden } from '../../../components/ui/visually-hidden';

export const SEARCH_STATE_TEXT = {
  reading: 'Reading...',
  searchable: 'Searchable',
  unreadable: 'Not searchable',
} as const;

/**
 * A file's place in the search index of Ask my files (issue 35): 'Reading...' while its text is
 * read and indexed, 'Searchable' once questions find it, and why it could not be read.
 */
export function FileSearchState({ file }: { file: FileItem }) {
  if (!file.search) return null;
  const icon =
    file.search === 'reading' ? (
      <CircularProgress size={10} aria-hidden sx={{ color: 'text.secondary' }} />
    ) : file.search === 'searchable' ? (
      <CheckCircleOutline aria-hidden sx={{ fontSize: 14 }} />
    ) : (
      <ErrorOutline aria-hidden sx={{ fontSize: 14 }} />
    );
  const text =
    file.search === 'unreadable'
      ? `${SEARCH_STATE_TEXT.unreadable}: ${file.search_error || 'no text could be read'}`
      : SEARCH_STATE_TEXT[file.search];
  return (
    <Box component="span" sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
      {/* Read after the size on its own line: a pause for screen readers. */}
      <Box component="span" sx={visuallyHidden}>
        {', '}
      </Box>
      <Box
        component="span"
        sx={{ display: 'inline-flex', flexShrink: 0, height: '1.43em', alignItems: 'center' }}
      >
        {icon}
      </Box>
      <span>{text}</span>
    </Box>
  );
}
