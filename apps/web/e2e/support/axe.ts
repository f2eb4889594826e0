import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

interface ContrastData {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  expectedContrastRatio?: string;
}

/**
 * Runs axe-core on the page as it is now; fails listing every violation and its targets (with the
 * colours for contrast failures). The failure is soft: the scenario goes on, so one run reports
 * the violations of every screen.
 */
export async function expectNoAxeViolations(page: Page, label: string) {
  // A hover tooltip of the control just clicked fades out while the dialog opens; scan the settled
  // screen, not the fade. (A tooltip kept open by keyboard focus is real and stays in the scan.)
  await page.mouse.move(0, 0);
  await page
    .getByRole('tooltip')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
  // Fades (dialogs, popovers, tooltips) blend colours mid-way, which axe reads as low contrast:
  // wait until every finite animation and transition has finished (spinners loop forever).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) =>
              a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => {});
  // Endless animations (spinners, indeterminate progress) are paused for the scan: a still frame
  // reads the same colours, and axe runs several times faster on it.
  const playEndless = (play: boolean) =>
    page.evaluate((resume) => {
      for (const a of document.getAnimations()) {
        if (a.effect?.getComputedTiming().iterations !== Infinity) continue;
        if (resume) a.play();
        else a.pause();
      }
    }, play);
  await playEndless(false);
  let results;
  try {
    results = await runAxe(page);
  } finally {
    await playEndless(true).catch(() => {}); // the page may have gone
  }
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .map((n) => {
          const data = n.any[0]?.data as ContrastData | null | undefined;
          const colours =
            data?.contrastRatio !== undefined
              ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}, needs ${data.expectedContrastRatio}]`
              : '';
          return `${n.target.join(' ')}${colours}`;
        })
        .join('\n    ')}`,
  );
  expect.soft(summary, `axe violations on ${label}`).toEqual([]);
}

type AxeWindow = Window & { axe?: typeof axe };

/**
 * axe.run on the document as it is, axe injected only once per document. @axe-core/playwright's
 * AxeBuilder injected axe's 550 KB twice per scan and aggregated in a new blank page, for frames
 * this app does not have: three times the cost (the browser files make ~120 scans).
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  const injected = await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function');
  if (!injected) await page.evaluate(axe.source);
  return page.evaluate(() => (window as AxeWindow).axe!.run(document));
}
