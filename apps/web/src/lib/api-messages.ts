/**
 * General request error texts of spec §8. Literal here (not read from the contract's errors module)
 * because this file is in the first chunk, which must not pull in zod.
 */
export const API_MESSAGES = {
  network: 'An error occurred. Please check your internet connection and try again.',
  tooLarge: 'The file is too large. Please upload a smaller file.',
  rateLimited: 'Rate limit exceeded. Please wait before retrying.',
  other: 'An error occurred. Please try again.',
  noRefreshToken: 'No refresh token available',
  noAccessToken: 'No access token returned in response',
} as const;

export function messageForStatus(status: number | null): string {
  if (status === null) return API_MESSAGES.network;
  if (status === 413) return API_MESSAGES.tooLarge;
  if (status === 429) return API_MESSAGES.rateLimited;
  return API_MESSAGES.other;
}
