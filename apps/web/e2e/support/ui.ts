import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export type Theme = 'light' | 'dark';
export const THEMES: readonly Theme[] = ['light', 'dark'];

/** Body background of each theme (spec §9). */
export const BACKGROUND: Record<Theme, string> = {
  light: 'rgb(255, 255, 255)',
  dark: 'rgb(18, 18, 18)',
};

/** Waits until the locator is visible (polling the UI, no fixed sleeps). */
export async function visible(locator: Locator, message?: string, timeout = 10_000) {
  await expect.poll(() => locator.isVisible(), { message, timeout }).toBe(true);
}

/** Waits until the locator is gone or hidden. */
export async function hidden(locator: Locator, message?: string, timeout = 10_000) {
  await expect.poll(() => locator.isVisible(), { message, timeout }).toBe(false);
}

/** Waits until the page's path (under the base path) is `expected` ("" is the chat home). */
export async function atRoute(page: Page, basePath: string, expected: string, timeout = 10_000) {
  // The router writes the home as "/assistant" or "/assistant/": both are the base path.
  const normalize = (p: string) => p.replace(/\/$/, '');
  await expect
    .poll(() => normalize(new URL(page.url()).pathname), { message: `route ${expected}`, timeout })
    .toBe(normalize(`${basePath}${expected}`));
}

/**
 * Chooses the theme the next page load starts in: the toggle stores its choice in localStorage,
 * so the scenario sets the same value and then (re)loads the screen under test.
 */
export async function chooseTheme(page: Page, theme: Theme) {
  await page.evaluate((t) => localStorage.setItem('themeMode', t), theme);
}

/** Asserts the page really renders in `theme` (after it loaded). */
export async function expectTheme(page: Page, theme: Theme) {
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .toBe(BACKGROUND[theme]);
}

/** Decodes a quoted-printable mail body (soft line breaks and =XX escapes). */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Holds every request matching `pattern` at the network until `release()` is called, so a
 * scenario can see a pending state (spinner, 'Submitting...') without timing guesses.
 */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(pattern, async (route) => {
    await held;
    // The page may be gone by then (end of the scenario).
    await route.continue().catch(() => {});
  });
  return release;
}
