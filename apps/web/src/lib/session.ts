import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@inkwell/contract';

/**
 * The signed-in session, kept in localStorage under the keys the spec names. A tiny external
 * store so the API client (no React) and components (via `useSession`) share one source of truth.
 */
export interface SessionSnapshot {
  isAuthenticated: boolean;
  firstName: string;
  /** Why the server ended the session ("This account has been disabled…"), until shown. */
  endedReason: string;
}

/** sessionStorage: the reason outlives the redirect to /login, not the tab. */
const ENDED_REASON_KEY = 'inkwell.sessionEndedReason';

const listeners = new Set<() => void>();
let snapshot: SessionSnapshot = read();

function read(): SessionSnapshot {
  return {
    isAuthenticated: Boolean(localStorage.getItem(STORAGE_KEYS.accessToken)),
    firstName: localStorage.getItem(STORAGE_KEYS.firstName) ?? '',
    endedReason: sessionStorage.getItem(ENDED_REASON_KEY) ?? '',
  };
}

function emit() {
  const next = read();
  if (
    next.isAuthenticated !== snapshot.isAuthenticated ||
    next.firstName !== snapshot.firstName ||
    next.endedReason !== snapshot.endedReason
  ) {
    snapshot = next;
  }
  listeners.forEach((l) => l());
}

export const session = {
  getAccessToken: () => localStorage.getItem(STORAGE_KEYS.accessToken),
  getRefreshToken: () => localStorage.getItem(STORAGE_KEYS.refreshToken),
  getSnapshot: () => snapshot,

  /** After login or registration. */
  signIn(tokens: { access_token: string; refresh_token: string; first_name?: string }) {
    localStorage.setItem(STORAGE_KEYS.accessToken, tokens.access_token);
    localStorage.setItem(STORAGE_KEYS.refreshToken, tokens.refresh_token);
    localStorage.setItem(STORAGE_KEYS.firstName, tokens.first_name ?? '');
    sessionStorage.removeItem(ENDED_REASON_KEY);
    emit();
  },

  /** After a token refresh (refresh tokens rotate, so the new one replaces the old). */
  setTokens(accessToken: string, refreshToken?: string) {
    localStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    emit();
  },

  setFirstName(firstName: string) {
    localStorage.setItem(STORAGE_KEYS.firstName, firstName);
    emit();
  },

  /** Logout: tokens and first name go. */
  clear() {
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    localStorage.removeItem(STORAGE_KEYS.firstName);
    emit();
  },

  /** The server ended the session (a disabled account): signed out, with the server's words. */
  endWithReason(reason: string) {
    sessionStorage.setItem(ENDED_REASON_KEY, reason);
    session.clear();
  },

  /** The reason was shown (or the person signed in again). */
  forgetEndedReason() {
    sessionStorage.removeItem(ENDED_REASON_KEY);
    emit();
  },

  /** Account deletion: all browser storage goes. */
  clearAll() {
    localStorage.clear();
    sessionStorage.clear();
    emit();
  },

  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },

  /** Re-reads storage (another tab changed it, or a test reset it). */
  refresh: emit,
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || Object.values(STORAGE_KEYS).includes(e.key as never)) emit();
  });
}

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
