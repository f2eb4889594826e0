import { userResponseSchema, type UserResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { USER_QUERY_KEY } from './user-query-key';

export function getUser(): Promise<UserResponse> {
  return apiRequest('user', { schema: userResponseSchema });
}

export const userQuery = queryOptions({ queryKey: USER_QUERY_KEY, queryFn: getUser });

export function useUser() {
  return useQuery(userQuery);
}
