import { startListeningChild } from '../../apps/server/test/listening-child';

/**
 * Starts a bench server in its own process (so it has a core's worth of event loop to itself, as
 * the product does) and resolves once it prints `listening on <port>`.
 */
export async function startChildServer(args: string[], env: Record<string, string> = {}) {
  const { url, stop } = await startListeningChild(args, { env, name: 'bench server' });
  return { url, stop };
}
