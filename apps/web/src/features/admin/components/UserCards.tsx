import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@inkwell/contract';
import { formatBytes, formatDateTime } from '../format';

/**
 * The users as cards, for phones: every figure of the table's row on its own line, and the
 * actions at the bottom of the card, so nothing lies beyond a 390 px screen.
 */
export function UserCards({
  users,
  renderActions,
}: {
  users: AdminUser[];
  renderActions: (user: AdminUser) => ReactNode;
}) {
  return (
    <Box component="ul" aria-label="Users" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {users.map((u) => (
        <Paper component="li" key={u.id} variant="outlined" sx={{ p: 1.5, mb: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {`${u.first_name} ${u.last_name}`.trim() || u.email}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {u.email}
          </Typography>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto 1fr',
              columnGap: 1.5,
              my: 1,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, overflowWrap: 'anywhere' },
            }}
          >
            {[
              ['Role', u.role],
              ['Status', u.disabled ? 'Disabled' : 'Active'],
              ['Created', formatDateTime(u.created_at)],
              ['Last seen', formatDateTime(u.last_seen_at)],
              ['Files', `${u.files} (${formatBytes(u.storage_bytes)})`],
              ['Prompts today', String(u.prompts_today)],
            ].map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2">
                  {term}
                </Typography>
                <Typography component="dd" variant="body2">
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          {renderActions(u)}
        </Paper>
      ))}
    </Box>
  );
}
