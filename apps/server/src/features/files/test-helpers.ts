import { registerUser, type TestServer } from '../../../test/test-app';

/** Uploads bytes as the multipart field `file`, the way the web app does. */
export function upload(
  server: TestServer,
  token: string,
  name: string,
  bytes: Uint8Array | string,
) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  return server.request('/api/upload_file', { method: 'POST', token, body: form });
}

export async function uploadOk(
  server: TestServer,
  token: string,
  name: string,
  bytes: Uint8Array | string,
) {
  const res = await upload(server, token, name, bytes);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { file: { id: number; file_name: string; size: number } }).file;
}

/** A new account: its access token and its user id. */
export async function registerWithId(server: TestServer) {
  const u = await registerUser(server);
  return { token: u.token, id: server.app.accessTokens.verify(u.token)!.userId };
}

/** What an account's files look like from outside and inside: its listing and its rows. */
export async function accountFilesState(server: TestServer, user: { token: string; id: number }) {
  const list = (await (await server.request('/api/my_files', { token: user.token })).json()) as {
    files: { file_name: string }[];
    used_bytes: number;
  };
  const rows = await server.app.db
    .selectFrom('files')
    .select(['id', 'size'])
    .where('user_id', '=', user.id)
    .execute();
  return { names: list.files.map((f) => f.file_name), used: list.used_bytes, rows };
}
