import { chatHistoryResponseSchema, type ChatHistoryResponse } from '@inkwell/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/chat/history: the stored conversation (oldest first) and the prompt counter. */
export function getChatHistory(): Promise<ChatHistoryResponse> {
  return apiRequest('chat/history', { withCredentials: true, schema: chatHistoryResponseSchema });
}

export const chatHistoryQuery = queryOptions({
  queryKey: ['chat', 'history'],
  queryFn: getChatHistory,
  staleTime: Infinity,
});
