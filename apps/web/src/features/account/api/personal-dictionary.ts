import { dictionaryResponseSchema, type DictionaryResponse } from '@inkwell/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/dictionary: the words proofreading keeps as written for this user. */
export function getDictionary(): Promise<DictionaryResponse> {
  return apiRequest('dictionary', { schema: dictionaryResponseSchema });
}

export const dictionaryQuery = queryOptions({ queryKey: ['dictionary'], queryFn: getDictionary });

export function useDictionary() {
  return useQuery(dictionaryQuery);
}

/** POST /api/dictionary (add) and DELETE /api/dictionary/:word (remove); the list comes back. */
export function useDictionaryChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ word, remove }: { word: string; remove?: boolean }) =>
      remove
        ? apiRequest(`dictionary/${encodeURIComponent(word)}`, {
            method: 'DELETE',
            schema: dictionaryResponseSchema,
          })
        : apiRequest('dictionary', {
            method: 'POST',
            body: { word },
            schema: dictionaryResponseSchema,
          }),
    onSuccess: (data) => queryClient.setQueryData(dictionaryQuery.queryKey, data),
  });
}
