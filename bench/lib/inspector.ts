import WebSocket from 'ws';

/** What a process's V8 heap holds after a full garbage collection, asked through its inspector. */
export interface LiveHeap {
  usedBytes: number;
  totalBytes: number;
}

/**
 * Runs a full garbage collection in the process whose inspector listens at `url` (a node started
 * with --inspect) and reads its heap: what is still in use then is live data, not garbage V8 has
 * not got round to, so a leak check compares like with like.
 */
export async function collectGarbage(url: string): Promise<LiveHeap> {
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
    return { usedBytes: Number(usage.usedSize), totalBytes: Number(usage.totalSize) };
  } finally {
    ws.close();
  }
}
