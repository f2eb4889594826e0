/** The profile's cache key, apart from its fetch: code that loads the fetch lazily shares the cache. */
export const USER_QUERY_KEY = ['user'] as const;
