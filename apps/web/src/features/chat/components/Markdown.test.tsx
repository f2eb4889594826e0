import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/utils';
import { MessageItem } from './MessageItem';

const HOSTILE = [
  '**Here** is the answer.',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '',
  '<div onclick="window.__pwned = \'div\'">raw block</div>',
  '',
  'Inline <span onmouseover="window.__pwned = \'span\'">html</span> too.',
  '',
  '[click me](javascript:window.__pwned="link") and [shout](JaVaScRiPt:alert(1)) and <javascript:alert(2)>',
  '',
  '[by reference][evil] ![picture](javascript:alert(3))',
  '',
  '[evil]: javascript:alert(4)',
  '',
  '[safe](https://example.com/docs)',
].join('\n');

declare global {
  interface Window {
    __pwned?: string;
  }
}

afterEach(() => {
  delete window.__pwned;
});

/** An ai message as the chat list shows it (the Markdown renderer loads lazily). */
async function renderAiMessage(text: string) {
  const { container } = renderWithProviders(
    <MessageItem message={{ id: 'm1', type: 'ai', text }} />,
  );
  const strong = await screen.findByText('Here', { selector: 'strong' });
  // The Markdown renderer's root: the paragraphs' parent.
  return { container, markdown: strong.closest('p')!.parentElement! };
}

describe('ai message Markdown is sanitised', () => {
  it('renders no script, no raw HTML element and no event handler attribute', async () => {
    const { container, markdown } = await renderAiMessage(HOSTILE);
    expect(container.querySelector('script')).toBeNull();
    expect(markdown.querySelector('img[src="x"], span, div')).toBeNull();
    const handlers = [...container.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
    );
    expect(handlers).toEqual([]);
    expect(window.__pwned).toBeUndefined();
    // The raw HTML is dropped, not shown as markup.
    expect(markdown.textContent).not.toContain('<script>');
    expect(markdown.textContent).not.toContain('onerror');
  });

  it('renders no javascript: URL, while ordinary links still work', async () => {
    const { container } = await renderAiMessage(HOSTILE);
    const urls = [...container.querySelectorAll('[href], [src]')].map(
      (el) => el.getAttribute('href') ?? el.getAttribute('src') ?? '',
    );
    expect(urls.filter((u) => /^\s*javascript:/i.test(u))).toEqual([]);
    for (const name of ['click me', 'shout', 'by reference']) {
      const link = screen.getByText(name).closest('a');
      expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
    }
    const safe = screen.getByRole('link', { name: 'safe' });
    expect(safe).toHaveAttribute('href', 'https://example.com/docs');
    expect(safe).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
