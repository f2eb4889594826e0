import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { startSession } from '../../src/features/auth';
import { startOpenAITestServer, type OpenAITestServer } from '../openai-test-server';
import { registerUser, startTestServer, type TestDialect, type TestServer } from '../test-app';
import {
  hostileRequests,
  inPool,
  operationsOf,
  send,
  type Answer,
  type HostileRequest,
  type MatrixContext,
  type Operation,
} from './hostile-requests';

/**
 * The hostile-input matrix against a real server: its accounts, the valid ids its path
 * parameters need, and the run itself. Shared by the test and the bench.
 */
type User = Awaited<ReturnType<typeof registerUser>>;

/** Operations that end a session or delete data: sent with a throwaway account's fresh session. */
const THROWAWAY_OPERATIONS = new Set([
  'POST /api/logout',
  'DELETE /api/delete_account',
  'DELETE /api/delete_all_files',
  'DELETE /api/delete_file/{id}',
]);

export interface HostileTarget {
  server: TestServer;
  model: OpenAITestServer;
  /** The operator (the first account), who owns `fileId`. */
  user: User;
  /** Never signed in by the matrix: their profile must come out unchanged. */
  bystander: User;
  fileId: number;
  close(): Promise<void>;
}

/** Uploads `content` as `name` for `token`; the new file's id. */
export async function uploadText(server: TestServer, token: string, name: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const res = await server.request('/api/upload_file', { method: 'POST', token, body: form });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return (await res.json()).file.id as number;
}

interface Setup extends HostileTarget {
  throwaway: User;
  throwawayFileId: number;
  targetUserId: number;
}

export async function startHostileTarget(dialect: TestDialect = 'sqlite'): Promise<Setup> {
  const model = await startOpenAITestServer({ reply: () => 'A short answer.' });
  const server = await startTestServer({
    dialect,
    env: {
      // A model, so no answer is a 503 for want of one; limits high enough that every request
      // is judged on its input, not refused for its number (each also names its own address).
      AI_BASE_URL: model.url,
      AI_MODEL: 'test-model',
      TRUST_PROXY: '127.0.0.1',
      AUTH_RATE_LIMIT: '100000',
      PROMPT_LIMIT: '100000',
    },
  });
  // The first account is the operator (no ADMIN_EMAILS): the admin routes get the same abuse.
  const user = await registerUser(server);
  const bystander = await registerUser(server);
  const throwaway = await registerUser(server);
  const target = await registerUser(server);
  const fileId = await uploadText(server, user.token, 'keep.txt', 'keep me');
  const throwawayFileId = await uploadText(server, throwaway.token, 'gone.txt', 'may go');
  const list = await (await server.request('/api/admin/users', { token: user.token })).json();
  const targetUserId = list.users.find((u: { email: string }) => u.email === target.email).id;
  return {
    server,
    model,
    user,
    bystander,
    fileId,
    throwaway,
    throwawayFileId,
    targetUserId,
    async close() {
      await server.close();
      await model.close();
    },
  };
}

export interface MatrixRun {
  ops: Operation[];
  requests: HostileRequest[];
  answers: Answer[];
}

/** Sends the matrix (`bodies`: all, or the representative subset), `concurrency` at a time. */
export async function runHostileMatrix(
  target: HostileTarget,
  bodies: MatrixContext['bodies'],
  concurrency = 4,
): Promise<MatrixRun> {
  const t = target as Setup;
  const { server } = t;
  const ops = operationsOf(await (await server.request('/api/docs')).json());
  const validId = (op: Operation) => {
    if (op.path.startsWith('/api/admin/users/')) return String(t.targetUserId);
    if (op.path === '/api/delete_file/{id}') return String(t.throwawayFileId);
    if (op.path.startsWith('/api/jobs/')) return randomUUID();
    if (op.path.startsWith('/api/chat/replies/')) return '1';
    return String(t.fileId);
  };
  const requests = hostileRequests(ops, { validId, bodies });
  const throwawayId = server.app.accessTokens.verify(t.throwaway.token)!.userId;
  const throwawaySession = async () =>
    (await startSession({ db: server.app.db, tokens: server.app.accessTokens }, throwawayId))
      .access_token;

  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const answers = await inPool(requests, concurrency, async (req, i) => {
      const token = !req.signedIn
        ? undefined
        : THROWAWAY_OPERATIONS.has(req.operation)
          ? await throwawaySession()
          : t.user.token;
      // Its own address (documentation prefix 2001:db8::/32) per request: a header, never a peer.
      const forwardedFor = `2001:db8::${i.toString(16)}`;
      return send(server.url, { ...req, token, forwardedFor }, agent);
    });
    return { ops, requests, answers };
  } finally {
    agent.destroy();
  }
}
