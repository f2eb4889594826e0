import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ConversationMessage } from '../../../lib/conversation';
import { follow } from '../follow';

/** Pixels from the page's end still counted as being at the newest message. */
const AT_END_PX = 48;

/** How long after a wheel, touch or key a scroll is still the person's. */
const INTENT_MS = 1000;
/** How long after the page changed size a move up may still be the virtual list's own. */
const SETTLE_MS = 300;
const SCROLL_KEYS = new Set(['ArrowUp', 'PageUp', 'Home', ' ', 'ArrowDown', 'PageDown', 'End']);

const page = () => document.scrollingElement ?? document.documentElement;

/**
 * The page's end: the newest message, just above the input bar (the bar sticks to the bottom of
 * the page's flow, so at the end nothing is behind it). Instant: a smooth scroll's in-between
 * positions would read as the person scrolling away.
 */
function scrollToEnd() {
  const root = page();
  root.scrollTop = root.scrollHeight;
  lastY = root.scrollTop;
}

/** Where the page was last seen: a scroll above it is a move up. */
let lastY = 0;

/**
 * Keeps the newest message in view (issue 39): on load, after what the person did (a message
 * sent, work started) and as things arrive (a streaming reply, a job's progress, an answer),
 * unless they scrolled up to read; then what arrives marks the conversation unseen, for the
 * 'New messages' button. The page scrolls (the list is virtualised against the window), so the
 * page's end is followed, not the list's own idea of its bottom, which the input bar covers.
 */
export function useFollowConversation(messages: ConversationMessage[]) {
  const known = useRef<Set<string> | null>(null);

  useEffect(() => {
    follow.set({ following: true });
    const unregister = follow.register(scrollToEnd);
    lastY = page().scrollTop;
    // The person's own scrolling: the virtual list also moves the page when it measures rows
    // above the screen, and that is no reason to stop following. So a move up right after the
    // page changed size counts only with a wheel, touch, key or scrollbar drag of the person's;
    // any other (a link, the focus moving up, a script) counts as leaving.
    let intentAt = -Infinity;
    let resizedAt = performance.now();
    let dragging = false;
    const intent = () => {
      intentAt = performance.now();
    };
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLElement && e.target.closest('input, textarea');
      if (SCROLL_KEYS.has(e.key) && !typing) intent();
    };
    const onPointer = (e: PointerEvent) => {
      dragging = e.type === 'pointerdown';
    };
    const onScroll = () => {
      const root = page();
      const y = root.scrollTop;
      const fromEnd = root.scrollHeight - y - window.innerHeight;
      const now = performance.now();
      const byPerson = dragging || now - intentAt < INTENT_MS || now - resizedAt > SETTLE_MS;
      if (fromEnd <= AT_END_PX) follow.set({ following: true });
      // Only a move up is the person leaving: content growing below moves nothing.
      else if (byPerson && y < lastY - 1) follow.set({ following: false });
      lastY = y;
    };
    const listeners: [string, EventListener][] = [
      ['scroll', onScroll],
      ['wheel', intent],
      ['touchmove', intent],
      ['keydown', onKey as EventListener],
      ['pointerdown', onPointer as EventListener],
      ['pointerup', onPointer as EventListener],
    ];
    for (const [type, fn] of listeners) window.addEventListener(type, fn, { passive: true });
    // Whatever grows (a reply streaming, rows measured by the virtual list, the input bar) keeps
    // the end in view while following.
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            resizedAt = performance.now();
            if (follow.getState().following) scrollToEnd();
          });
    observer?.observe(document.body);
    scrollToEnd();
    return () => {
      unregister();
      observer?.disconnect();
      for (const [type, fn] of listeners) window.removeEventListener(type, fn);
      follow.set({ following: true });
    };
  }, []);

  useLayoutEffect(() => {
    const before = known.current;
    known.current = new Set(messages.map((m) => m.id));
    if (!before) return;
    const added = messages.filter((m) => !before.has(m.id));
    // What the person just did is shown even when they had scrolled up.
    if (added.some((m) => m.type === 'user' || m.work)) follow.set({ following: true });
    if (follow.getState().following) scrollToEnd();
    else follow.set({ unseen: true });
  }, [messages]);
}
