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

/** "30 seconds", "1 minute", "5 minutes", "2 hours": a Retry-After in words. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  if (s < 90 * 60) return unit(Math.ceil(s / 60), 'minute');
  return unit(Math.ceil(s / 3600), 'hour');
}

/** The general text of a failed request; a 429 adds its Retry-After in words. */
export function messageForStatus(status: number | null, retryAfterSeconds?: number): string {
  if (status === null) return API_MESSAGES.network;
  if (status === 413) return API_MESSAGES.tooLarge;
  if (status === 429) {
    return retryAfterSeconds && retryAfterSeconds > 0
      ? `${API_MESSAGES.rateLimited} Try again in ${waitText(retryAfterSeconds)}.`
      : API_MESSAGES.rateLimited;
  }
  return API_MESSAGES.other;
}
