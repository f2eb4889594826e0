import { multipart, openEventStream } from '../../apps/server/test/event-stream-client';

/**
 * POST /api/proofread of a pptx, streamed as the web app asks for it: milliseconds to the
 * findings (`partial`) and to the end (`done`, null if it had not come within `waitDoneMs`).
 */
export async function firstEventTimes(
  url: string,
  token: string,
  pptx: Uint8Array,
  waitDoneMs: number,
) {
  const t0 = performance.now();
  const stream = await openEventStream(url, {
    path: '/api/proofread',
    token,
    body: await multipart({}, { name: 'deck.pptx', bytes: pptx }),
  });
  if (stream.status !== 200) throw new Error(`proofread answered ${stream.status}`);
  const partial = await stream.waitFor((e) => e.event === 'partial' || e.event === 'error');
  if (partial.event === 'error')
    throw new Error(`proofread failed: ${JSON.stringify(partial.data)}`);
  const issues = (partial.data as { issues: unknown[] }).issues.length;
  const done = await Promise.race([
    stream.waitFor((e) => e.event === 'done' || e.event === 'error'),
    new Promise<null>((r) => setTimeout(() => r(null), waitDoneMs)),
  ]);
  stream.hangUp();
  return {
    partialMs: Math.round(partial.at - t0),
    doneMs: done ? Math.round(done.at - t0) : null,
    issues,
  };
}
