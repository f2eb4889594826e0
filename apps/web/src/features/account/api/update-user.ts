import {
  updateUserResponseSchema,
  type UpdateUserRequest,
  type UpdateUserResponse,
} from '@inkwell/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { session } from '../../../lib/session';
import { userQuery } from './get-user';

/** PUT /api/user with exactly one field. */
export function updateUser(body: UpdateUserRequest): Promise<UpdateUserResponse> {
  return apiRequest('user', { method: 'PUT', body, schema: updateUserResponseSchema });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (data, body) => {
      const { message: _message, access_token, ...user } = data;
      queryClient.setQueryData(userQuery.queryKey, user);
      // Spec §3: the edited value is also stored under its field name (never the password that
      // confirms an email change).
      for (const [field, value] of Object.entries(body)) {
        if (field !== 'current_password') localStorage.setItem(field, String(value));
      }
      if ('first_name' in body) session.setFirstName(user.first_name);
      // An email change re-issues the access token (its claims carry the email).
      if (access_token) session.setTokens(access_token);
    },
  });
}
