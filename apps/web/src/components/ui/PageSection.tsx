import type { ReactNode } from 'react';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';

/** A titled part of a page: a region named by its h2, under a divider. */
export function PageSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <Divider sx={{ my: 3 }} />
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </section>
  );
}
