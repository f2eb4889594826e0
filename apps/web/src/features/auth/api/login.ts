import { tokensResponseSchema, type LoginRequest, type TokensResponse } from '@inkwell/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { session } from '../../../lib/session';

export function login(body: LoginRequest): Promise<TokensResponse> {
  return apiRequest('login', { method: 'POST', body, auth: false, schema: tokensResponseSchema });
}

export function useLogin() {
  return useMutation({ mutationFn: login, onSuccess: (tokens) => session.signIn(tokens) });
}
