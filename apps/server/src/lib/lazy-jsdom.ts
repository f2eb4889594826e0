import type * as JsdomModule from 'jsdom';
import { lazyRequire } from './lazy-require';

/** jsdom (a second to load), for page audits only. */
export const jsdom = lazyRequire<typeof JsdomModule>('jsdom');
