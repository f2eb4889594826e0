import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { READ_CHECK_MS } from './file-reads';
import { getFileText } from './files.service';
import { configureReader } from './reader';
import { slowPdftotext } from './reader/slow-pdftotext.test-helper';
import { registerWithId, uploadOk } from './test-helpers';

/**
 * A deleted file's read stops: the reader (here poppler's process) is not kept busy for text that
 * nobody can ask for, whether the file was deleted through this server or elsewhere.
 */
describe("a deleted file's read", () => {
  let server: TestServer;
  const standIn = slowPdftotext('inkwell-deleted-read-');
  const { started, running } = standIn;

  beforeAll(async () => {
    server = await startTestServer();
    configureReader({ pdftotext: standIn.command, timeLimitMs: standIn.timeLimitMs });
  });
  // A failed run leaves its stand-ins reading: ended before the server (which waits for its
  // reads) and after it (a read its sweep started meanwhile).
  afterAll(async () => {
    standIn.endAll();
    await server?.close();
    standIn.remove();
  });

  const deps = () => ({ db: server.app.db, dialect: server.dialect, storage: server.app.storage });
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 0x20)]);

  /** Uploads a pdf and waits until the upload's own read (for the search index) has started. */
  async function uploadBeingRead(token: string, name: string) {
    const before = started().length;
    const file = await uploadOk(server, token, name, pdf);
    await expect.poll(() => started().length).toBe(before + 1);
    return { file, pid: started().at(-1)! };
  }

  it('stops at once when the file is deleted, and answers its readers 404', async () => {
    const user = await registerWithId(server);
    const { file, pid } = await uploadBeingRead(user.token, 'minutes.pdf');
    // An action's read of the same file shares the upload's read, and ends with it.
    const action = expect(getFileText(deps(), user.id, file.id)).rejects.toMatchObject({
      statusCode: 404,
      message: 'File not found',
    });
    const res = await server.request(`/api/delete_file/${file.id}`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(res.status).toBe(200);
    await action;
    await expect.poll(() => running(pid)).toBe(false);
  });

  it('stops when all files are deleted', async () => {
    const user = await registerWithId(server);
    const { pid } = await uploadBeingRead(user.token, 'agenda.pdf');
    const res = await server.request('/api/delete_all_files', {
      method: 'DELETE',
      token: user.token,
    });
    expect(res.status).toBe(200);
    await expect.poll(() => running(pid)).toBe(false);
  });

  it('stops when another server deletes the file (its row is gone)', async () => {
    const user = await registerWithId(server);
    const { file, pid } = await uploadBeingRead(user.token, 'budget.pdf');
    await server.app.db.deleteFrom('files').where('id', '=', file.id).execute();
    await expect.poll(() => running(pid), { timeout: READ_CHECK_MS * 4 }).toBe(false);
  });
});
