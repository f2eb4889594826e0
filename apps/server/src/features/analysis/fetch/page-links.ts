import { parsePage } from './page-document';
import type { FetchedResource } from './safe-fetch';

/**
 * The links a crawler may follow from a page (none when its robots meta says nofollow): a CPU
 * pool task (src/cpu-tasks.ts), since it parses the page with jsdom.
 */
export function pageLinks(page: FetchedResource): string[] {
  const dom = parsePage(page);
  try {
    const doc = dom.window.document;
    // A page that asks crawlers not to follow its links is respected.
    const meta = doc.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? '';
    if (/nofollow|none/i.test(meta)) return [];
    return [...doc.querySelectorAll('a[href]')]
      .filter((a) => !/\bnofollow\b/i.test(a.getAttribute('rel') ?? ''))
      .map((a) => a.getAttribute('href')!);
  } finally {
    dom.window.close();
  }
}
