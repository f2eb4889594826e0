import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '../../lib/use-document-title';

/** A centred card with the page's h1, used by the form pages. */
export function PageContainer({
  title,
  children,
  maxWidth = 440,
}: {
  title: string;
  children: ReactNode;
  maxWidth?: number;
}) {
  useDocumentTitle(title);
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'center', px: { xs: 1, sm: 2 }, py: { xs: 2, sm: 4 } }}
    >
      <Paper sx={{ width: '100%', maxWidth, p: { xs: 2, sm: 4 } }} elevation={2}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
