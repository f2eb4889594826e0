import { adminUserSchema, type AdminUser } from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminUsersQuery } from './get-admin-users';

/** POST /api/admin/users/:id/disable or /enable. */
export function setUserDisabled(input: { id: number; disabled: boolean }): Promise<AdminUser> {
  const action = input.disabled ? 'disable' : 'enable';
  return apiRequest(`admin/users/${input.id}/${action}`, {
    method: 'POST',
    schema: adminUserSchema,
  });
}

export function useSetUserDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserDisabled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersQuery.queryKey }),
  });
}
