import type { FetchedResource } from '../features/analysis';

/**
 * A page that axe in jsdom takes minutes over (thousands of linked images and faint text):
 * what a slow anonymous analysis looks like to the pool.
 */
export function heavyPage(elements: number): FetchedResource {
  let body = '<!doctype html><html lang="en"><head><title>Heavy</title></head><body><main>';
  for (let i = 0; i < elements; i++)
    body += `<div><a href="/p${i}"><img src="/i${i}.png"></a><span style="color:#bbb">${i}</span></div>`;
  return {
    url: 'http://127.0.0.1/heavy',
    status: 200,
    headers: {},
    rawHeaders: [],
    contentType: 'text/html',
    body: Buffer.from(`${body}</main></body></html>`),
    redirects: [],
  };
}
