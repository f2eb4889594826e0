import { adminUsersResponseSchema, type AdminUser } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/admin/users: every account with its activity. */
export async function getAdminUsers(): Promise<AdminUser[]> {
  return (await apiRequest('admin/users', { schema: adminUsersResponseSchema })).users;
}

export const adminUsersQuery = queryOptions({
  queryKey: ['admin', 'users'],
  queryFn: getAdminUsers,
});

export function useAdminUsers() {
  return useQuery(adminUsersQuery);
}
