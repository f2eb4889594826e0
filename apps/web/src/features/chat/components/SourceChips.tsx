import { useId } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import type { AskFilesSource } from '@inkwell/contract';
import { passagePreview } from '../../../lib/passage-preview';

/**
 * The sources of an answer across files (issue 35), in the order the answer used them: one chip
 * per passage, naming the file and the place; a chip opens the file's preview at the passage.
 */
export function SourceChips({ sources }: { sources: AskFilesSource[] }) {
  const headingId = useId();
  if (sources.length === 0) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography
        id={headingId}
        variant="caption"
        component="p"
        color="text.secondary"
        sx={{ mb: 0.5 }}
      >
        Sources
      </Typography>
      <Box
        component="ul"
        aria-labelledby={headingId}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, m: 0, p: 0, listStyle: 'none' }}
      >
        {sources.map((s, i) => (
          <Box component="li" key={`${s.file_id}-${s.start}-${i}`} sx={{ maxWidth: '100%' }}>
            <Chip
              icon={<DescriptionOutlined />}
              label={
                // The name gives way on a narrow screen; the place stays readable.
                <Box component="span" sx={{ display: 'flex', minWidth: 0 }}>
                  <Box
                    component="span"
                    sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {s.file_name}
                  </Box>
                  {s.where && (
                    <Box component="span" sx={{ flexShrink: 0, whiteSpace: 'pre' }}>
                      {` · ${s.where}`}
                    </Box>
                  )}
                </Box>
              }
              variant="outlined"
              onClick={() =>
                passagePreview.open({
                  fileId: s.file_id,
                  fileName: s.file_name,
                  where: s.where,
                  start: s.start,
                  end: s.end,
                })
              }
              title={s.excerpt.length > 300 ? `${s.excerpt.slice(0, 300)}…` : s.excerpt}
              sx={{ maxWidth: '100%' }}
            />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
