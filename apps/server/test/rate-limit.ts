import { expect } from 'vitest';

/** The spec's answer to a client over its limit, then the wait in words ("5 minutes"). */
export const RATE_LIMITED = {
  error: expect.stringMatching(
    /^Rate limit exceeded\. Please wait before retrying\. Too many attempts: try again in \d+ (seconds?|minutes?|hours?)\.$/,
  ) as unknown as string,
};

/**
 * Makes `limit` attempts, each of which must get through with `status` (never 429), and answers
 * the response to the next one.
 */
export async function attemptsPastLimit(
  limit: number,
  status: number,
  attempt: (i: number) => Promise<Response>,
): Promise<Response> {
  for (let i = 0; i < limit; i++) {
    const res = await attempt(i);
    expect(res.status, `attempt ${i + 1} of ${limit}`).toBe(status);
    await res.body?.cancel();
  }
  return attempt(limit);
}

/**
 * A 429 in the spec's format, whose Retry-After (seconds) lies within the route's window and is
 * not much shorter than it (the window began at the first of a quick run of attempts).
 */
export async function expectRateLimited(res: Response, windowSeconds: number) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(windowSeconds / 2);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  const body = (await res.json()) as { error: string };
  expect(body).toEqual(RATE_LIMITED);
  // The text's wait is the header's: in seconds under a minute (a loaded machine may take a
  // second or more to spend the budget, so a one-minute window can have 59 s left), else minutes.
  const wait =
    retryAfter < 60
      ? `${retryAfter} second${retryAfter === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfter / 60)} minute`;
  expect(body.error).toContain(`try again in ${wait}`);
}

/** AUTH_RATE_LIMIT's window: 15 minutes. */
export const AUTH_WINDOW_SECONDS = 15 * 60;
