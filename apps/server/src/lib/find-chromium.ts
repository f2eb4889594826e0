import { accessSync, constants } from 'node:fs';

/** Where Debian, Ubuntu, Fedora, snap and macOS put a Chromium or Chrome. */
export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser page analysis renders in: CHROMIUM_PATH if set, else the first usual install path
 * that holds an executable, so an installed Chromium gives the full rule set without a setting.
 * `off` (ANALYSIS_BROWSER=off) keeps analysis in jsdom. Checked once, at start-up.
 */
export function findChromium(
  configured: string | undefined,
  mode: 'auto' | 'off',
  candidates: readonly string[] = USUAL_CHROMIUM_PATHS,
  isExecutable: (file: string) => boolean = executable,
): string | undefined {
  if (mode === 'off') return undefined;
  if (configured) return configured;
  return candidates.find(isExecutable);
}
