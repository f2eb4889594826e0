import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { conversation } from '../../lib/conversation';
import { json, mockFetch, renderWithProviders, signIn } from '../../test/utils';
import { follow } from './follow';

/** The page as jsdom cannot lay it out: this tall, this far down. */
function pageAt(scrollHeight: number) {
  const root = document.scrollingElement ?? document.documentElement;
  Object.defineProperty(root, 'scrollHeight', { configurable: true, value: scrollHeight });
  return root;
}

function setup() {
  // jsdom has no window.scrollTo (the virtual list's first scroll); the page is moved by hand.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  signIn('Ada');
  mockFetch((req) => {
    if (req.path === 'alerts/latest') return json(200, { message: '', isVisible: false });
    if (req.path === 'chat/history') {
      return json(200, {
        messages: [
          { id: 1, role: 'user', text: 'Earlier question', created_at: '' },
          { id: 2, role: 'assistant', text: 'Earlier answer', created_at: '' },
        ],
        current: 1,
        max: 20,
        started_at: null,
      });
    }
    if (req.path === 'jobs') return json(200, { jobs: [], next_cursor: null });
    return undefined;
  });
  renderWithProviders(<AppRoutes />, { route: '/' });
  return userEvent.setup();
}

describe('the chat follows the conversation', () => {
  afterEach(() => {
    delete (pageAt(0) as unknown as Record<string, unknown>).scrollHeight;
  });

  // (That the page opens at its end is the browser test's: jsdom lays nothing out.)
  it('scrolled up, news brings the New messages button, which goes down', async () => {
    const user = setup();
    expect(await screen.findByText('Earlier answer')).toBeInTheDocument();
    const root = pageAt(5000);
    // At the end, as the list left it in a real browser.
    act(() => {
      root.scrollTop = 5000 - window.innerHeight;
      window.dispatchEvent(new Event('scroll'));
    });

    // The person scrolls up with the wheel: the chat stops following, nothing new yet.
    act(() => {
      window.dispatchEvent(new WheelEvent('wheel', { deltaY: -500 }));
      root.scrollTop = 1000;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(follow.getState().following).toBe(false);
    expect(await screen.findByRole('button', { name: 'Newest message' })).toBeInTheDocument();

    // A reply arrives meanwhile: the page stays, the button says so.
    act(() => void conversation.add({ type: 'ai', text: 'Something new' }));
    expect(await screen.findByRole('button', { name: 'New messages' })).toBeInTheDocument();
    expect(root.scrollTop).toBe(1000);

    await user.click(screen.getByRole('button', { name: 'New messages' }));
    expect(root.scrollTop).toBe(5000);
    expect(follow.getState().following).toBe(true);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });

  it('what the person does (a message sent) is shown even when they had scrolled up', async () => {
    setup();
    expect(await screen.findByText('Earlier answer')).toBeInTheDocument();
    const root = pageAt(5000);
    // At the end, as the list left it in a real browser.
    act(() => {
      root.scrollTop = 5000 - window.innerHeight;
      window.dispatchEvent(new Event('scroll'));
    });
    act(() => {
      window.dispatchEvent(new WheelEvent('wheel', { deltaY: -500 }));
      root.scrollTop = 1000;
      window.dispatchEvent(new Event('scroll'));
    });
    expect(follow.getState().following).toBe(false);
    pageAt(6000);
    act(() => void conversation.add({ type: 'user', text: 'My new question' }));
    await waitFor(() => expect(root.scrollTop).toBe(6000));
    expect(follow.getState().following).toBe(true);
  });
});
