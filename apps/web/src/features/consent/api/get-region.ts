import type { RegionResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/region: the visitor's country, or null when unknown (then no banner). */
export function getRegion(): Promise<RegionResponse> {
  // Not zod-validated: part of the shell's first chunk, which stays free of zod.
  return apiRequest<RegionResponse>('region', { auth: false, log: false });
}

export const regionQuery = queryOptions({
  queryKey: ['region'],
  queryFn: getRegion,
  staleTime: Infinity,
});

export function useRegion(enabled: boolean) {
  return useQuery({ ...regionQuery, enabled });
}
