import type { LatestAlertResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/alerts/latest, sent without a token (spec §6); failures are only logged. */
export function getLatestAlert(): Promise<LatestAlertResponse> {
  // Not zod-validated: part of the shell's first chunk, which stays free of zod.
  return apiRequest<LatestAlertResponse>('alerts/latest', { auth: false });
}

export const latestAlertQuery = queryOptions({
  queryKey: ['alerts', 'latest'],
  queryFn: getLatestAlert,
  staleTime: 5 * 60_000,
});

export function useLatestAlert() {
  return useQuery(latestAlertQuery);
}
