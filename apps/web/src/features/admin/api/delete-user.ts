import { successResponseSchema, type SuccessResponse } from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminUsersQuery } from './get-admin-users';

/** DELETE /api/admin/users/:id: the account and everything it owns. */
export function deleteUser(id: number): Promise<SuccessResponse> {
  return apiRequest(`admin/users/${id}`, { method: 'DELETE', schema: successResponseSchema });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersQuery.queryKey }),
  });
}
