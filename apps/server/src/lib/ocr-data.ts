import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * A language's traineddata: the npm package `@tesseract.js-data/<code>` (its LSTM integer model,
 * 4.0.0_best_int), or undefined when that package is not installed.
 */
export function traineddataFile(code: string): string | undefined {
  if (!/^[a-z_]+$/.test(code)) return undefined;
  try {
    const pkg = require.resolve(`@tesseract.js-data/${code}/package.json`);
    const file = path.join(path.dirname(pkg), '4.0.0_best_int', `${code}.traineddata.gz`);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}
