import {
  messageResponseSchema,
  type MessageResponse,
  type RequestPasswordReset,
} from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function requestPasswordReset(body: RequestPasswordReset): Promise<MessageResponse> {
  return apiRequest('request_password_reset', {
    method: 'POST',
    body,
    auth: false,
    schema: messageResponseSchema,
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
