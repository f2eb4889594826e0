import { QueryClient } from '@tanstack/react-query';

/** The API client already retries once after a token refresh; React Query must not retry on top. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
