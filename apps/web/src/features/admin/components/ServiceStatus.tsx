import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AdminOverviewResponse } from '@inkwell/contract';

const SIGN_UP: Record<AdminOverviewResponse['registration']['mode'], string> = {
  open: 'Open to anyone',
  closed: 'Closed',
  invite: 'By invitation only',
  domain: 'Addresses at the allowed domains, others by invitation',
};

/** Ready, downloading, loading or unavailable (with why), and the calls waiting for it. */
function modelState(model: AdminOverviewResponse['model']): string {
  const state =
    model.state === 'ready'
      ? 'ready'
      : model.state === 'downloading'
        ? `downloading${model.progress !== null ? ` (${model.progress} %)` : ''}`
        : model.state === 'loading'
          ? 'loading'
          : `unavailable${model.reason ? ` (${model.reason})` : ''}`;
  return model.queued > 0 ? `${state}, ${model.queued} call(s) waiting` : state;
}

/** The model, who may sign up and the daily prompt limit, as the server runs them now. */
export function ServiceStatus({ overview }: { overview: AdminOverviewResponse }) {
  const { model, registration } = overview;
  const rows: [string, string][] = [
    ['Model', `${model.name}: ${modelState(model)}`],
    [
      'Sign-up',
      registration.mode === 'domain'
        ? `${SIGN_UP.domain}: ${registration.domains.join(', ')}`
        : SIGN_UP[registration.mode],
    ],
    ['Prompts per user per day', String(overview.prompt_limit)],
  ];
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: { sm: 'max-content 1fr' }, gap: 1, m: 0 }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
