import {
  latestAlertResponseSchema,
  type LatestAlertResponse,
  type SetAlertRequest,
} from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminOverviewQuery } from './get-admin-overview';

/** PUT /api/admin/alert sets the banner every visitor sees; DELETE clears it. */
export function setAlert(body: SetAlertRequest | null): Promise<LatestAlertResponse> {
  return apiRequest('admin/alert', {
    method: body ? 'PUT' : 'DELETE',
    ...(body ? { body } : {}),
    schema: latestAlertResponseSchema,
  });
}

export function useSetAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAlert,
    onSuccess: (alert) => {
      queryClient.setQueryData(adminOverviewQuery.queryKey, (o) => o && { ...o, alert });
      // The banner of this very page (the alerts feature's query) shows the change at once.
      return queryClient.invalidateQueries({ queryKey: ['alerts'] });
    },
  });
}
