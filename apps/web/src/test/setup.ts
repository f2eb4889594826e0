import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { conversation } from '../lib/conversation';
import { filesQuestion } from '../lib/files-question';
import { passagePreview } from '../lib/passage-preview';
import { session } from '../lib/session';

// Lazy routes compile on first use under Vitest; give them time.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  conversation.reset();
  conversation.setUsage(null);
  filesQuestion.reset();
  passagePreview.close();
  localStorage.clear();
  session.refresh();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// jsdom lacks matchMedia, which MUI's useMediaQuery reads.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
