import type { CDPSession, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** What a keyboard user has focused: the browser's computed role and accessible name. */
export interface Focused {
  role: string;
  name: string;
  /** The element matches :focus-visible (the browser shows keyboard focus). */
  focusVisible: boolean;
  /** A visible indicator: an outline, MUI's focus-visible class or a focused input's frame. */
  indicator: boolean;
  /** The element is rendered and inside the viewport. */
  onScreen: boolean;
}

const sessions = new WeakMap<Page, CDPSession>();

async function cdp(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = await page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/**
 * The focused element as assistive technology sees it (Chromium's accessibility tree, through
 * the DevTools protocol), plus whether its focus is visible on screen.
 */
export async function focused(page: Page): Promise<Focused> {
  const session = await cdp(page);
  const { result } = await session.send('Runtime.evaluate', {
    expression: 'document.activeElement',
  });
  let role = 'none';
  let name = '';
  if (result.objectId) {
    const { nodes } = await session.send('Accessibility.getPartialAXTree', {
      objectId: result.objectId,
      fetchRelatives: false,
    });
    const node = nodes[0];
    role = String(node?.role?.value ?? 'none');
    // Chromium names text as rendered: CSS upper-casing applies and a zero-width space may lead.
    name = String(node?.name?.value ?? '')
      .replace(/[\u200B-\u200D\uFEFF]/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    await session.send('Runtime.releaseObject', { objectId: result.objectId });
  }
  const view = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { focusVisible: false, indicator: false, onScreen: false };
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const indicator =
      outline ||
      el.classList.contains('Mui-focusVisible') ||
      Boolean(el.closest('.MuiInputBase-root.Mui-focused')) ||
      style.boxShadow !== 'none';
    return {
      focusVisible: el.matches(':focus-visible'),
      indicator,
      onScreen:
        rect.width > 1 &&
        rect.height > 1 &&
        rect.bottom > 0 &&
        rect.right > 0 &&
        rect.top < innerHeight &&
        rect.left < innerWidth,
    };
  });
  return { role, name, ...view };
}

const describe = (f: Focused) => `${f.role} "${f.name}"`;

/** Same role, and the same name ignoring case (a string) or a name the pattern finds. */
function matches(f: Focused, role: string, name: string | RegExp) {
  return (
    f.role === role &&
    (typeof name === 'string' ? f.name.toLowerCase() === name.toLowerCase() : name.test(f.name))
  );
}

/**
 * Waits until focus is on the element with this role and name; unless `visibleFocus` is false,
 * also requires the focus to be visible (on screen, :focus-visible, with an indicator).
 */
export async function expectFocus(
  page: Page,
  role: string,
  name: string | RegExp,
  opts: { visibleFocus?: boolean; timeout?: number } = {},
): Promise<Focused> {
  let last: Focused | undefined;
  await expect
    .poll(
      async () => {
        last = await focused(page);
        return matches(last, role, name) ? 'ok' : describe(last);
      },
      { message: `focus on ${role} "${String(name)}"`, timeout: opts.timeout ?? 5_000 },
    )
    .toBe('ok');
  if (opts.visibleFocus !== false) {
    expect(
      { onScreen: last!.onScreen, focusVisible: last!.focusVisible, indicator: last!.indicator },
      `visible focus on ${describe(last!)}`,
    ).toEqual({ onScreen: true, focusVisible: true, indicator: true });
  }
  return last!;
}

/**
 * Presses `key` (Tab by default) until the element with this role and name has focus; fails with
 * the path focus took when it is not reached within `max` presses. Returns the number of presses.
 */
export async function pressUntilFocused(
  page: Page,
  role: string,
  name: string | RegExp,
  opts: { key?: string; max?: number } = {},
): Promise<number> {
  const path: string[] = [];
  const max = opts.max ?? 25;
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(opts.key ?? 'Tab');
    const f = await focused(page);
    path.push(describe(f));
    if (matches(f, role, name)) return i;
  }
  throw new Error(
    `${opts.key ?? 'Tab'} did not reach ${role} "${String(name)}" in ${max} presses; focus went:\n  ${path.join('\n  ')}`,
  );
}

/** Waits until focus is inside `container` (a dialog or drawer traps it there when it opens). */
export async function expectFocusWithin(container: Locator, timeout = 5_000) {
  await expect
    .poll(() => container.evaluate((el) => el.contains(document.activeElement)), {
      message: 'focus inside the dialog',
      timeout,
    })
    .toBe(true);
}
