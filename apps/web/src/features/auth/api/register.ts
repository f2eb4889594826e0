import { tokensResponseSchema, type RegisterRequest, type TokensResponse } from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { session } from '../../../lib/session';

export function register(body: RegisterRequest): Promise<TokensResponse> {
  return apiRequest('register', {
    method: 'POST',
    body,
    auth: false,
    schema: tokensResponseSchema,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register, onSuccess: (tokens) => session.signIn(tokens) });
}
