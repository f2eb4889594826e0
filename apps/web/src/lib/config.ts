import type { ClientConfigResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/** GET /api/config: public client configuration shared by several features (captcha, analytics, prompt limit). */
export function getClientConfig(): Promise<ClientConfigResponse> {
  // Not zod-validated: this is read by the shell, whose chunk stays free of zod.
  return apiRequest<ClientConfigResponse>('config', { auth: false });
}

export const clientConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: getClientConfig,
  staleTime: Infinity,
});

export function useClientConfig() {
  return useQuery(clientConfigQuery);
}
