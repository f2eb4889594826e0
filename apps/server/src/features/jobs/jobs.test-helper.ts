import { startSlowModelServer, type SlowModelServer } from '../../../test/slow-model-server';
import { startTestServer, type TestDialect, type TestServer } from '../../../test/test-app';

/**
 * A test server in front of a fast model stand-in, for the jobs' tests: calls cost little, and
 * `model.hold()` keeps them waiting so a job stays running as long as a test needs.
 */
export async function startServerWithModel(
  dialect: TestDialect,
  env: Record<string, string> = {},
): Promise<{ model: SlowModelServer; server: TestServer }> {
  const model = await startSlowModelServer({
    promptTokensPerSecond: 40_000,
    generatedTokensPerSecond: 800,
  });
  const server = await startTestServer({ dialect, env: { AI_BASE_URL: model.url, ...env } });
  return { model, server };
}

export async function stopServerWithModel(s: { model?: SlowModelServer; server?: TestServer }) {
  await s.server?.close();
  await s.model?.close();
}
