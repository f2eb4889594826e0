import type { Page } from 'playwright-core';

/**
 * Every console error and uncaught error of `page`, for tests that require none. The one thing
 * let through is the region lookup's 404 (GET /api/region), which another change removes.
 */
export function collectConsoleErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const url = m.location().url ?? '';
    if (/\/api\/region(\?|$)/.test(url) && /404/.test(m.text())) return;
    errors.push(`${m.text()} (${url})`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return () => errors;
}
