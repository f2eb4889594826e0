import { createHash, randomBytes, randomInt } from 'node:crypto';
import { HttpClient, multipartFile, type HttpAnswer } from './http-client';

/**
 * A mixed load of signed-in users through the proxy: sign-up, sign-in, uploads (mostly small
 * text, now and then one large enough to be a multipart upload on S3), file lists and downloads.
 * Every upload answered 201 is remembered with its bytes' hash; a later list that lacks it or a
 * download that differs is counted at once.
 */
export interface AcceptedUpload {
  id: number;
  sha: string;
  size: number;
  user: VirtualUser;
}

export interface VirtualUser {
  client: HttpClient;
  email: string;
  token?: string;
  logins: number;
  files: AcceptedUpload[];
}

export interface LoadResult {
  requests: number;
  /** Answers other than the one the operation expects (status 0: the connection failed). */
  errors: number;
  errorsByStatus: Record<string, number>;
  /** Milliseconds of every request, in the order they finished. */
  latencies: number[];
  accepted: AcceptedUpload[];
  /** Lists that lacked an upload already answered 201, and downloads that were missing or differed. */
  listMisses: number;
  downloadMisses: number;
  users: VirtualUser[];
}

export const PASSWORD = 'scale-out password';
/** Each user signs in at most this often: AUTH_RATE_LIMIT (10) counts per client address. */
const MAX_LOGINS = 5;
const LARGE_UPLOAD_BYTES = 6 * 1024 * 1024; // more than one S3 part (5 MB)

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A run's own block of loopback client addresses: 127.a.b.1, 127.a.b.2, … */
export function clientAddresses(count: number): string[] {
  const a = randomInt(1, 255);
  const b = randomInt(0, 256);
  return Array.from({ length: count }, (_, i) => `127.${a}.${b}.${i + 1}`);
}

/** Random text (no NUL byte: it must pass as a .txt). */
const text = (size: number) =>
  Buffer.from(
    randomBytes(Math.ceil(size * 0.75))
      .toString('base64')
      .slice(0, size),
  );
const largePdf = () =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(LARGE_UPLOAD_BYTES - 9)]);

export async function runMixedLoad(opts: {
  url: string;
  users: number;
  /**
   * Runs beside the load, seeing its figures as they grow (e.g. a kill -9 once so many uploads
   * were accepted). The load does not end before it is done.
   */
  during?: (live: LoadResult) => Promise<void>;
  /** The load ends once this holds (checked between two requests of each user)… */
  until: (live: LoadResult) => boolean;
  /** …or after this long at the most, whatever `until` says. */
  maxMs: number;
  /** Every this-many-th upload is a large one. */
  largeEvery?: number;
}): Promise<LoadResult> {
  const result: LoadResult = {
    requests: 0,
    errors: 0,
    errorsByStatus: {},
    latencies: [],
    accepted: [],
    listMisses: 0,
    downloadMisses: 0,
    users: [],
  };
  const run = randomBytes(4).toString('hex');
  let uploads = 0;
  const largeEvery = opts.largeEvery ?? 25;
  const record = (what: string, answer: HttpAnswer, expected: number) => {
    result.requests += 1;
    result.latencies.push(answer.ms);
    if (answer.status === expected) return true;
    result.errors += 1;
    const key = `${what} ${answer.status}`;
    result.errorsByStatus[key] = (result.errorsByStatus[key] ?? 0) + 1;
    return false;
  };
  const auth = (u: VirtualUser) => ({ authorization: `Bearer ${u.token}` });

  async function signIn(u: VirtualUser, register: boolean) {
    const body = { email: u.email, password: PASSWORD, first_name: 'Load' };
    const path = register ? '/api/register' : '/api/login';
    const answer = await u.client.json(`${opts.url}${path}`, 'POST', body);
    if (!register) u.logins += 1;
    if (record(path, answer, register ? 201 : 200)) {
      u.token = (JSON.parse(answer.body.toString()) as { access_token: string }).access_token;
    }
  }

  async function upload(u: VirtualUser) {
    const large = ++uploads % largeEvery === 0;
    const bytes = large ? largePdf() : text(randomInt(1024, 48 * 1024));
    const form = await multipartFile(large ? 'large.pdf' : 'notes.txt', bytes);
    const answer = await u.client.send(`${opts.url}/api/upload_file`, {
      method: 'POST',
      headers: { ...auth(u), 'content-type': form.contentType },
      body: form.body,
    });
    if (!record('upload', answer, 201)) return;
    const { file } = JSON.parse(answer.body.toString()) as { file: { id: number } };
    const accepted = { id: file.id, sha: sha256(bytes), size: bytes.length, user: u };
    u.files.push(accepted);
    result.accepted.push(accepted);
  }

  async function list(u: VirtualUser) {
    const known = u.files.map((f) => f.id); // answered 201 before this list was asked for
    const answer = await u.client.send(`${opts.url}/api/my_files`, { headers: auth(u) });
    if (!record('list', answer, 200)) return;
    const listed = new Set(
      (JSON.parse(answer.body.toString()) as { files: { id: number }[] }).files.map((f) => f.id),
    );
    result.listMisses += known.filter((id) => !listed.has(id)).length;
  }

  async function download(u: VirtualUser) {
    const f = u.files[randomInt(u.files.length)]!;
    const answer = await u.client.send(`${opts.url}/api/download_file/${f.id}`, {
      headers: auth(u),
    });
    if (answer.status === 404 || (answer.status === 200 && sha256(answer.body) !== f.sha))
      result.downloadMisses += 1;
    record('download', answer, 200);
  }

  /** One operation of a signed-in user, by a mix like a person's at work. */
  async function act(u: VirtualUser) {
    const r = Math.random();
    if (r < 0.35 || u.files.length === 0) return upload(u);
    if (r < 0.6) return list(u);
    if (r < 0.92 || u.logins >= MAX_LOGINS) return download(u);
    return signIn(u, false);
  }

  result.users = clientAddresses(opts.users).map((address, i) => ({
    client: new HttpClient(address),
    email: `scale-${run}-${i}@example.com`,
    logins: 0,
    files: [],
  }));
  const deadline = Date.now() + opts.maxMs;
  const during = opts.during?.(result);
  let duringDone = !during;
  void during?.finally(() => (duringDone = true));
  const goOn = () => Date.now() < deadline && !(duringDone && opts.until(result));
  await Promise.all(
    result.users.map(async (u) => {
      // A failed sign-up may have been stored all the same: from then on, sign in instead.
      let registered = false;
      while (goOn()) {
        if (!u.token) {
          await signIn(u, !registered);
          registered = true;
          continue;
        }
        await act(u);
      }
    }),
  );
  await during;
  return result;
}

/** The p-th percentile (0–100) of the values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
