import type { AskFilesResponse, FileItem, MyFilesResponse } from '@inkwell/contract';
import type { TestServer } from '../../../../test/test-app';

/** The user's files as GET /api/my_files shows them. */
export async function myFiles(server: TestServer, token: string): Promise<FileItem[]> {
  const res = await server.request('/api/my_files', { token });
  if (res.status !== 200) throw new Error(`my_files: ${res.status}`);
  return ((await res.json()) as MyFilesResponse).files;
}

/**
 * Waits until every file of the user has left 'reading' (indexed, or unreadable): polls the
 * files' state, with the sweep asked to run now, so it waits on the state and not on a clock.
 */
export async function untilIndexed(server: TestServer, token: string): Promise<FileItem[]> {
  for (;;) {
    const files = await myFiles(server, token);
    if (files.every((f) => f.search !== 'reading')) return files;
    await server.app.knowledge.sweep();
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function askFiles(
  server: TestServer,
  token: string,
  body: unknown,
): Promise<{ status: number; body: AskFilesResponse & { error?: string } }> {
  const res = await server.request('/api/ask_files', { method: 'POST', token, json: body });
  return { status: res.status, body: (await res.json()) as AskFilesResponse & { error?: string } };
}
