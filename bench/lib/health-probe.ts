import { Agent, request } from 'node:http';

/**
 * /api/health latencies, one request after another over one kept-alive socket, until `stop`
 * resolves; sorted. `pauseMs` between checks keeps the probe itself from loading the server.
 */
export async function probeHealth(base: string, stop: Promise<void>, pauseMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let done = false;
  void stop.then(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}/api/health`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  agent.destroy();
  return times.sort((a, b) => a - b);
}

/** The p-th percentile of sorted values (nearest rank). */
export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
