import {
  messageResponseSchema,
  type MessageResponse,
  type ResetPasswordRequest,
} from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  return apiRequest('reset_password', {
    method: 'POST',
    body,
    auth: false,
    schema: messageResponseSchema,
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
