import { useSyncExternalStore } from 'react';

/**
 * Whether the chat follows the conversation (the page stays at its newest message) and whether
 * something arrived while the person had scrolled up to read. The list (MessageList) keeps it up
 * to date; the bottom bar shows the 'New messages' button from it.
 */
export interface FollowState {
  following: boolean;
  /** Something new arrived while not following. */
  unseen: boolean;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: FollowState = { following: true, unseen: false };
/** Scrolls the page to the newest message (set by the mounted list). */
let toNewest: () => void = () => {};

export const follow = {
  getState: () => state,
  set(patch: Partial<FollowState>) {
    const next = { ...state, ...patch };
    if (next.following) next.unseen = false;
    if (next.following === state.following && next.unseen === state.unseen) return;
    state = next;
    listeners.forEach((l) => l());
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** The list registers how it scrolls to its end; returns the unregistration. */
  register(scroll: () => void) {
    toNewest = scroll;
    return () => {
      if (toNewest === scroll) toNewest = () => {};
    };
  },
  /** 'New messages': back to the newest message, following again. */
  goToNewest() {
    follow.set({ following: true });
    toNewest();
  },
};

export function useFollow(): FollowState {
  return useSyncExternalStore(follow.subscribe, follow.getState);
}
