/**
 * What search engines read: robots.txt and a sitemap of the public pages (spec §2: the pages a
 * visitor may read without an account, and the static privacy and terms pages).
 */
export const PUBLIC_PAGES = ['', 'faq', 'about', 'login', 'register', 'privacy.html', 'terms.html'];

/** Pages a crawler has no business in: the API, the account, links with a reset token. */
const PRIVATE_PATHS = ['api/', 'account', 'reset-password'];

/** `appUrl` is the product's public address with its base path, ending in `/`. */
export function robotsTxt(basePath: string, appUrl: string): string {
  return [
    'User-agent: *',
    `Allow: ${basePath}`,
    ...PRIVATE_PATHS.map((p) => `Disallow: ${basePath}${p}`),
    '',
    `Sitemap: ${appUrl}sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(appUrl: string): string {
  const urls = PUBLIC_PAGES.map((p) => `  <url><loc>${escapeXml(appUrl + p)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
