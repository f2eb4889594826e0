import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '../../../components/ui/visually-hidden';

export interface Passage {
  /** Where, for people ("page 4"). */
  where: string;
  /** Offsets in the file's extracted text. */
  start: number;
  end: number;
}

/**
 * A file's extracted text with a cited passage marked and scrolled into view (a source of an
 * answer across files). The mark's start and end are said to screen readers too.
 */
export function PassageText({
  text,
  passage,
  zoom,
}: {
  text: string;
  passage: Passage;
  zoom: number;
}) {
  const mark = useRef<HTMLElement>(null);
  const start = Math.min(Math.max(passage.start, 0), text.length);
  const end = Math.min(Math.max(passage.end, start), text.length);
  const shown = end > start;
  useEffect(() => {
    mark.current?.scrollIntoView?.({ block: 'center' });
  }, [text, start, end]);
  const where = passage.where ? ` (${passage.where})` : '';
  return (
    <Box sx={{ fontSize: zoom }}>
      <Typography variant="body2" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {shown
          ? `The cited passage${where} is marked.`
          : `The cited passage${where} is not in the part of the file shown.`}
      </Typography>
      <Box sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text.slice(0, start)}
        {shown && (
          <Box
            component="mark"
            ref={mark}
            data-testid="cited-passage"
            // The spec's yellow with its dark text, in both themes.
            sx={{ bgcolor: 'secondary.main', color: 'secondary.contrastText', borderRadius: 0.5 }}
          >
            <Box component="span" sx={visuallyHidden}>
              {'Cited passage: '}
            </Box>
            {text.slice(start, end)}
            <Box component="span" sx={visuallyHidden}>
              {' End of the cited passage.'}
            </Box>
          </Box>
        )}
        {text.slice(end)}
      </Box>
    </Box>
  );
}
