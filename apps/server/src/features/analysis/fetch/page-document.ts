import type { JSDOM } from 'jsdom';
import { jsdom } from '../../../lib/lazy-jsdom';
import type { FetchedResource } from './safe-fetch';

/**
 * The fetched page as a DOM. The page's own scripts never run ('outside-only' only lets us eval
 * axe-core), and jsdom loads no sub-resources by default, so parsing makes no network requests.
 */
export function parsePage(page: Pick<FetchedResource, 'url' | 'body' | 'contentType'>): JSDOM {
  // jsdom reports what it cannot do (canvas, navigation) to the console: nothing for our logs.
  const { JSDOM, VirtualConsole } = jsdom();
  const virtualConsole = new VirtualConsole();
  const contentType = page.contentType.toLowerCase().includes('xhtml')
    ? 'application/xhtml+xml'
    : 'text/html';
  const charset = /charset=([^;]+)/i.exec(page.contentType)?.[1]?.trim();
  try {
    return new JSDOM(page.body, {
      url: page.url,
      runScripts: 'outside-only',
      virtualConsole,
      // The charset of the header wins; without one jsdom sniffs <meta charset> in the bytes.
      contentType: charset ? `${contentType}; charset=${charset}` : contentType,
    });
  } catch {
    // Malformed XHTML (or an unknown charset) still deserves an audit: parse as plain HTML.
    return new JSDOM(page.body, { url: page.url, runScripts: 'outside-only', virtualConsole });
  }
}

/** Text a reader sees: no script, style or template contents. */
export function visibleText(root: Element): string {
  const clone = root.cloneNode(true) as Element;
  for (const el of clone.querySelectorAll('script, style, noscript, template')) el.remove();
  return (clone.textContent ?? '').replace(/\s+/g, ' ').trim();
}
