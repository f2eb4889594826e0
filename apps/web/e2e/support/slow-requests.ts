import type { Page, Request } from 'playwright-core';

/** Slower than this, a request is named when a scenario fails. */
const SLOW_MS = 1_000;

/**
 * Times every request of a page, so a failed scenario can say which ones were slow or never
 * answered: a step that waits on the page often waits on one of them (a chunk, an API call).
 */
export function watchSlowRequests(page: Page): () => string[] {
  const began = Date.now();
  const started = new Map<Request, number>();
  const slow: string[] = [];
  const since = (t: number) => `${((t - began) / 1000).toFixed(1)} s in`;
  const name = (r: Request) => `${r.method()} ${new URL(r.url()).pathname}`;
  page.on('request', (r) => started.set(r, Date.now()));
  const ended = (r: Request, how: string) => {
    const at = started.get(r);
    started.delete(r);
    if (at === undefined) return;
    const took = Date.now() - at;
    if (took >= SLOW_MS)
      slow.push(`slow request: ${name(r)} ${how} after ${took} ms (${since(at)})`);
  };
  page.on('requestfinished', (r) => ended(r, 'answered'));
  page.on('requestfailed', (r) => ended(r, `failed (${r.failure()?.errorText ?? '?'})`));
  return () => [
    ...slow,
    ...[...started].map(
      ([r, at]) => `unanswered request: ${name(r)}, sent ${Date.now() - at} ms ago (${since(at)})`,
    ),
  ];
}
