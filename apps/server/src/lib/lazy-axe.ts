import type * as AxeModule from 'axe-core';
import { lazyRequire } from './lazy-require';

/** axe-core (half a second to load: its 1.5 MB source), for page analysis only. */
export const axeCore = lazyRequire<typeof AxeModule>('axe-core');
