import type { AiStatus } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/ai/status: whether the model is downloading, loading, ready or unavailable. */
export function getAiStatus(): Promise<AiStatus> {
  // Not zod-validated: the input bar loads with `/`, whose first chunks stay free of zod.
  return apiRequest<AiStatus>('ai/status', { log: false });
}

/** While the model is not ready, asked every 2 s (the banner follows the download); then every minute. */
export const aiStatusQuery = queryOptions({
  queryKey: ['ai', 'status'],
  queryFn: getAiStatus,
  refetchInterval: (query) => (query.state.data?.state === 'ready' ? 60_000 : 2_000),
});

export function useAiStatus(enabled: boolean) {
  return useQuery({ ...aiStatusQuery, enabled });
}
