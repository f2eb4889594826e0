import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AdminOverviewResponse } from '@inkwell/contract';
import { formatDateTime } from '../format';
import { RetryModelButton } from './RetryModelButton';

const SIGN_UP: Record<AdminOverviewResponse['registration']['mode'], string> = {
  open: 'Open to anyone',
  closed: 'Closed',
  invite: 'By invitation only',
  domain: 'Addresses at the allowed domains, others by invitation',
};

type Model = AdminOverviewResponse['model'];

/** Ready, downloading, loading, unavailable or unreachable, and the calls waiting for it. */
function modelState(model: Model): string {
  const state =
    model.state === 'downloading'
      ? `downloading${model.progress !== null ? ` (${model.progress} %)` : ''}`
      : model.state;
  return model.queued > 0 ? `${state}, ${model.queued} call(s) waiting` : state;
}

/** For the operator: why the model does not serve (the setting to fix), and when it is tried again. */
function modelRows(model: Model): [string, string][] {
  const rows: [string, string][] = [];
  if (model.detail) rows.push(['Why', model.detail]);
  if (model.last_ok_at) rows.push(['Model server last answered', formatDateTime(model.last_ok_at)]);
  if (model.next_retry_at) rows.push(['Next attempt', formatDateTime(model.next_retry_at)]);
  return rows;
}

type SearchIndex = NonNullable<AdminOverviewResponse['search_index']>;

/**
 * How far the index of questions across files is: every file is read and indexed once (new
 * uploads at once, the others in the background after an upgrade), then given its vectors when
 * an embeddings model is set.
 */
export function searchIndexState(index: SearchIndex): string {
  const n = (x: number) => x.toLocaleString('en');
  const parts = [`${n(index.searchable)} of ${n(index.files)} files searchable`];
  if (index.reading > 0) parts.push(`${n(index.reading)} being read`);
  if (index.unreadable > 0) parts.push(`${n(index.unreadable)} unreadable`);
  if (index.with_vectors !== undefined)
    parts.push(`${n(index.with_vectors)} with vectors for meaning`);
  return parts.join(', ');
}

const failed = (model: Model) => model.state === 'unavailable' || model.state === 'unreachable';

/** The model, who may sign up and the daily prompt limit, as the server runs them now. */
export function ServiceStatus({ overview }: { overview: AdminOverviewResponse }) {
  const { model, registration } = overview;
  const rows: [string, string][] = [
    ['Model', `${model.name}: ${modelState(model)}`],
    ...modelRows(model),
    [
      'Sign-up',
      registration.mode === 'domain'
        ? `${SIGN_UP.domain}: ${registration.domains.join(', ')}`
        : SIGN_UP[registration.mode],
    ],
    ['Prompts per user per day', String(overview.prompt_limit)],
    ...(overview.search_index
      ? [['Search index', searchIndexState(overview.search_index)] as [string, string]]
      : []),
  ];
  return (
    <>
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
      {failed(model) && <RetryModelButton />}
    </>
  );
}
