import WebSocket from 'ws';

/**
 * Runs a full garbage collection in the process whose inspector listens at `url` (a node started
 * with --inspect) and returns the bytes its V8 heap still uses: live data, not garbage V8 has not
 * got round to, so a leak check compares like with like.
 */
export async function collectGarbage(url: string): Promise<number> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 0;
  const call = (method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (data: WebSocket.RawData) => {
        const msg = JSON.parse(data.toString()) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (msg.id !== id) return;
        ws.off('message', onMessage);
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result ?? {});
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method }));
    });
  try {
    // Twice: objects freed by the first collection's finalizers go in the second.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const usage = await call('Runtime.getHeapUsage');
    return Number(usage.usedSize);
  } finally {
    ws.close();
  }
}
