import type * as JsdomModule from 'jsdom';
import { lazyRequire } from './lazy-require';

/** jsdom (a second to load), for page audits and docx previews only. */
export const jsdom = lazyRequire<typeof JsdomModule>('jsdom');
