import { multipart, openEventStream } from './event-stream-client';

/**
 * The load of the restart fault tests (PostgreSQL, Redis): users uploading files one after another
 * and users whose summaries run as jobs, against a server at `url`. Every answer is kept with when
 * it came, so a test can say which failed, when, and whether what was answered as saved is there.
 */
export interface UploadOutcome {
  user: number;
  name: string;
  bytes: Buffer;
  /** performance.now() when it was sent and when its answer (or its failure) came. */
  sentAt: number;
  at: number;
  status: number | 'no answer';
  /** The file's id when it was saved (201). */
  id?: number;
}

export const PASSWORD = 'restart test password';

export async function register(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, first_name: 'Restart' }),
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A file's content, known from its name (so a download can be checked byte for byte). */
export const fileBytes = (name: string) => Buffer.from(`${name}\n`.repeat(2000));

/** Users uploading one file after another until `stop()`; answers every outcome. */
export function startUploaders(url: string, tokens: string[]) {
  let going = true;
  const outcomes: UploadOutcome[] = [];
  const loops = tokens.map(async (token, user) => {
    for (let n = 0; going; n++) {
      const name = `u${user}-f${n}.txt`;
      const bytes = fileBytes(name);
      const form = await multipart({}, { name, bytes });
      const sentAt = performance.now();
      const outcome: UploadOutcome = { user, name, bytes, sentAt, at: 0, status: 'no answer' };
      try {
        const res = await fetch(`${url}/api/upload_file`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
          body: form.bytes,
          signal: AbortSignal.timeout(30_000),
        });
        outcome.status = res.status;
        const body = (await res.json()) as { file?: { id: number } };
        if (res.status === 201) outcome.id = body.file?.id;
      } catch {
        // No answer (the connection failed or timed out): counted as such.
      }
      outcome.at = performance.now();
      outcomes.push(outcome);
      // A failed upload is tried again a little later, as a person would.
      if (outcome.status !== 201) await new Promise((r) => setTimeout(r, 200));
    }
  });
  return {
    outcomes,
    async stop() {
      going = false;
      await Promise.all(loops);
    },
  };
}

/**
 * One client posting to a rate-limited endpoint (POST /api/logs: 120 a minute per address, the
 * counters in Redis when there is one) every 100 ms until `stop()`; answers every outcome.
 */
export function startLimitedClient(url: string) {
  let going = true;
  const outcomes: { sentAt: number; at: number; status: number | 'no answer' }[] = [];
  const loop = (async () => {
    while (going) {
      const sentAt = performance.now();
      let status: number | 'no answer' = 'no answer';
      try {
        const res = await fetch(`${url}/api/logs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'restart test', level: 'info' }),
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch {
        // No answer: counted as such.
      }
      outcomes.push({ sentAt, at: performance.now(), status });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    outcomes,
    async stop() {
      going = false;
      await loop;
    },
  };
}

/** Starts a summary as a job and answers its id (the stream is hung up: the job goes on). */
export async function startSummary(url: string, token: string, name: string, text: string) {
  const stream = await openEventStream(url, {
    path: '/api/summarize',
    token,
    body: await multipart({}, { name, bytes: Buffer.from(text) }),
  });
  const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
  stream.hangUp();
  return id;
}

/** Every file a user has that the server lists, downloaded whole. */
export async function storedFiles(url: string, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const list = (await (await fetch(`${url}/api/my_files`, { headers: auth })).json()) as {
    files: { id: number; file_name: string }[];
  };
  const files = new Map<number, { name: string; bytes: Buffer }>();
  for (const f of list.files) {
    const res = await fetch(`${url}/api/download_file/${f.id}`, { headers: auth });
    files.set(f.id, { name: f.file_name, bytes: Buffer.from(await res.arrayBuffer()) });
  }
  return files;
}

/** Compares what the uploads were answered with what is stored; answers what was lost. */
export function lostUploads(
  outcomes: UploadOutcome[],
  stored: Map<number, { name: string; bytes: Buffer }>[],
): string[] {
  const lost: string[] = [];
  for (const o of outcomes) {
    if (o.status !== 201) continue;
    const file = o.id === undefined ? undefined : stored[o.user]!.get(o.id);
    if (!file || file.name !== o.name || !file.bytes.equals(o.bytes)) lost.push(o.name);
  }
  return lost;
}
