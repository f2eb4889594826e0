import { adminOverviewResponseSchema, type AdminOverviewResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/overview: 404 to anyone but an operator (the route shows its 404 page then). */
export function getAdminOverview(): Promise<AdminOverviewResponse> {
  return apiRequest('admin/overview', { schema: adminOverviewResponseSchema });
}

export const adminOverviewQuery = queryOptions({
  queryKey: ['admin', 'overview'],
  queryFn: getAdminOverview,
});

export function useAdminOverview() {
  return useQuery(adminOverviewQuery);
}
