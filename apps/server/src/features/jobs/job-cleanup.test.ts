import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowModelServer } from '../../../test/slow-model-server';
import { registerUser, testDialects, type TestServer } from '../../../test/test-app';
import { postForm } from '../documents/testing';
import { registerWithId } from '../files/testing';
import { accountCleanup } from '../../account-cleanup';
import { deleteAccount } from '../users';
import { jobsRepo } from './jobs.repo';
import { startServerWithModel, stopServerWithModel } from './jobs.test-helper';

/**
 * Issue 26: logout stops the user's jobs while the session still holds; deleting an account
 * deletes its jobs' objects (jobs/<id>/…, outside users/<id>/); a sweep removes job objects
 * without a row.
 */
describe.each(testDialects())('jobs leave nothing behind (%s)', (dialect) => {
  let model: SlowModelServer;
  let server: TestServer;
  beforeAll(async () => {
    ({ model, server } = await startServerWithModel(dialect));
  });
  afterAll(() => stopServerWithModel({ model, server }));

  const jobObjects = async () => {
    const keys: string[] = [];
    for await (const key of server.app.storage.list('jobs/')) keys.push(key);
    return keys;
  };

  /** A summary whose model calls wait: it stays running with its input stored. */
  async function runningSummary(token: string, name = 'notes.txt') {
    const pending = postForm(server, '/api/summarize', token, {
      file: { name, bytes: new TextEncoder().encode('Gulls at dawn. '.repeat(400)) },
    });
    let id: string | undefined;
    // A state, waited for as long as a loaded machine needs (poll's default is 1 s).
    await expect
      .poll(
        async () => {
          const res = await server.request('/api/jobs', { token });
          const { jobs } = (await res.json()) as {
            jobs: { id: string; state: string; about: { file_name?: string } }[];
          };
          id = jobs.find((j) => j.state === 'running' && j.about.file_name === name)?.id;
          return id;
        },
        { timeout: 30_000 },
      )
      .toBeTruthy();
    return { id: id!, pending };
  }

  it('logout cancels the running jobs before the session ends', async () => {
    const release = model.hold();
    try {
      const user = await registerWithId(server);
      const { id, pending } = await runningSummary(user.token);
      expect(await jobObjects()).toContain(`jobs/${id}/input`);
      const out = await server.request('/api/logout', { method: 'POST', token: user.token });
      expect(out.status).toBe(200);
      expect((await jobsRepo.find(server.app.db, id))!.state).toBe('cancelled');
      expect((await pending).status).toBe(409);
      expect(await jobObjects()).not.toContain(`jobs/${id}/input`);
    } finally {
      release();
    }
  });

  it("logout on one device cancels that session's jobs; the same user's on another go on", async () => {
    const release = model.hold();
    try {
      const user = await registerUser(server);
      const login = await server.request('/api/login', {
        method: 'POST',
        json: { email: user.email, password: user.password },
      });
      const phone = ((await login.json()) as { access_token: string }).access_token;
      const onLaptop = await runningSummary(user.token, 'laptop.txt');
      const onPhone = await runningSummary(phone, 'phone.txt');
      const out = await server.request('/api/logout', { method: 'POST', token: phone });
      expect(out.status).toBe(200);
      expect((await jobsRepo.find(server.app.db, onPhone.id))!.state).toBe('cancelled');
      expect((await onPhone.pending).status).toBe(409);
      expect((await jobsRepo.find(server.app.db, onLaptop.id))!.state).toBe('running');
      expect(await jobObjects()).toContain(`jobs/${onLaptop.id}/input`);
      // The laptop's session holds: its job is still its own to follow and to cancel.
      const cancel = await server.request(`/api/jobs/${onLaptop.id}`, {
        method: 'DELETE',
        token: user.token,
      });
      expect(cancel.status).toBe(200);
      await onLaptop.pending;
    } finally {
      release();
    }
  });

  it("deleting an account deletes its jobs' inputs; another user's stay", async () => {
    const release = model.hold();
    try {
      const [gone, other] = [await registerWithId(server), await registerWithId(server)];
      const mine = await runningSummary(gone.token);
      const theirs = await runningSummary(other.token);
      await deleteAccount(
        { db: server.app.db, accountCleanup: accountCleanup(server.app) },
        gone.id,
      );
      const left = await jobObjects();
      expect(left).not.toContain(`jobs/${mine.id}/input`);
      expect(left).toContain(`jobs/${theirs.id}/input`);
      await server.request(`/api/jobs/${theirs.id}`, { method: 'DELETE', token: other.token });
      await Promise.allSettled([mine.pending, theirs.pending]);
    } finally {
      release();
    }
  });

  it('the sweep removes job objects without a row and keeps those of a job', async () => {
    const release = model.hold();
    try {
      const user = await registerWithId(server);
      const live = await runningSummary(user.token);
      const orphan = `jobs/${randomUUID()}/input`;
      await server.app.storage.put(orphan, Readable.from(Buffer.from('left behind')));
      // A first round only suspects it (a job being created stores its input before its row).
      await server.app.jobs.sweepObjects();
      expect(await jobObjects()).toContain(orphan);
      expect(await server.app.jobs.sweepObjects()).toBeGreaterThanOrEqual(1);
      const left = await jobObjects();
      expect(left).not.toContain(orphan);
      expect(left).toContain(`jobs/${live.id}/input`);
      await server.request(`/api/jobs/${live.id}`, { method: 'DELETE', token: user.token });
      await live.pending;
    } finally {
      release();
    }
  });
});
