import type { FetchedResource } from '../../fetch/safe-fetch';
import { parsePage } from '../../fetch/page-document';
import { runAxeInJsdom, type AxeRun } from './axe-jsdom';

/** axe in jsdom on a fetched page: a CPU pool task (src/cpu-tasks.ts), off the event loop. */
export async function axeInJsdom(page: FetchedResource): Promise<AxeRun> {
  const dom = parsePage(page);
  try {
    return await runAxeInJsdom(dom);
  } finally {
    dom.window.close();
  }
}
