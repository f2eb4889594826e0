import { adminModelRetryResponseSchema, type AdminModelRetryResponse } from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminOverviewQuery } from './get-admin-overview';

/** POST /api/admin/model/retry: the failed download or the model server check, tried now. */
export function retryModel(): Promise<AdminModelRetryResponse> {
  return apiRequest('admin/model/retry', { method: 'POST', schema: adminModelRetryResponseSchema });
}

export function useRetryModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminOverviewQuery.queryKey }),
  });
}
