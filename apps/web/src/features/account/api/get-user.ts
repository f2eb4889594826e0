import { userResponseSchema, type UserResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function getUser(): Promise<UserResponse> {
  return apiRequest('user', { schema: userResponseSchema });
}

export const userQuery = queryOptions({ queryKey: ['user'], queryFn: getUser });

export function useUser() {
  return useQuery(userQuery);
}
