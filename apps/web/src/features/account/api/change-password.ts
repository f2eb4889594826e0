import {
  successResponseSchema,
  type ChangePasswordRequest,
  type SuccessResponse,
} from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function changePassword(body: ChangePasswordRequest): Promise<SuccessResponse> {
  return apiRequest('change_password', { method: 'POST', body, schema: successResponseSchema });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
