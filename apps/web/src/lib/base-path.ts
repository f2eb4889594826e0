/**
 * The base path the app is mounted under, always ending in "/". The server injects
 * `<base href="{BASE_PATH}">` into index.html; without it (Vite dev server, tests) the app is at "/".
 */
export function getBasePath(): string {
  const href = document.querySelector('base')?.getAttribute('href');
  if (!href) return '/';
  const path = new URL(href, window.location.origin).pathname;
  return path.endsWith('/') ? path : `${path}/`;
}

/** The react-router basename: the base path without its trailing slash ("" → "/"). */
export function getRouterBasename(): string {
  const base = getBasePath();
  return base === '/' ? '/' : base.slice(0, -1);
}

/** An absolute URL path under the base, e.g. `withBase('terms.html')` → "/assistant/terms.html". */
export function withBase(path: string): string {
  return `${getBasePath()}${path.replace(/^\//, '')}`;
}
