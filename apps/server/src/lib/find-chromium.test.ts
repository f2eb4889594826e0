import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config';
import { findChromium } from './find-chromium';

describe('finding the Chromium page analysis renders in', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-chromium-'));
  const installed = path.join(dir, 'chromium');
  writeFileSync(installed, '#!/bin/sh\n', { mode: 0o755 });
  const notExecutable = path.join(dir, 'readme');
  writeFileSync(notExecutable, 'text', { mode: 0o644 });
  const candidates = [path.join(dir, 'missing'), notExecutable, installed];

  it('takes the first usual install path that holds an executable', () => {
    expect(findChromium(undefined, 'auto', candidates)).toBe(installed);
    expect(findChromium(undefined, 'auto', [path.join(dir, 'missing')])).toBeUndefined();
  });

  it('prefers CHROMIUM_PATH, and ANALYSIS_BROWSER=off overrides both', () => {
    expect(findChromium('/opt/chrome/chrome', 'auto', candidates)).toBe('/opt/chrome/chrome');
    expect(findChromium('/opt/chrome/chrome', 'off', candidates)).toBeUndefined();
    expect(findChromium(undefined, 'off', candidates)).toBeUndefined();
  });

  it('is resolved once, into the loaded settings', () => {
    const env = { DATA_DIR: dir, NODE_ENV: 'test' };
    expect(loadSettings({ ...env, CHROMIUM_PATH: installed }).CHROMIUM_PATH).toBe(installed);
    expect(
      loadSettings({ ...env, CHROMIUM_PATH: installed, ANALYSIS_BROWSER: 'off' }).CHROMIUM_PATH,
    ).toBeUndefined();
    expect(() => loadSettings({ ...env, ANALYSIS_BROWSER: 'maybe' })).toThrow(/ANALYSIS_BROWSER/);
  });
});
