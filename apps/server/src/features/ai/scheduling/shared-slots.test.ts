import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlowModelServer, type SlowModelServer } from '../../../../test/slow-model-server';
import { startNodeProcess, type NodeProcess } from '../../../../test/scale-out/node-process';
import { openDatabase, type DatabaseHandle } from '../../../db/database';
import { generate } from '../language-model';
import { OpenAIModel } from '../engine/openai/openai-model';
import { ScheduledModel } from './scheduled-model';
import { SharedSlots } from './shared-slots';

/**
 * One model server behind several processes on one PostgreSQL database: the slots are shared,
 * so the server never gets more than AI_PARALLEL calls at once, batch calls leave one slot for
 * people, a chat takes slot 0 (where the server keeps the people's prompt cache), and a process that dies frees its slots within seconds (its lease expires).
 * Three schedulers with their own database connections stand for three processes; the killed
 * holder is a real process.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)(
  'shared model slots across processes (needs TEST_DATABASE_URL: PostgreSQL)',
  () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-slots-'));
    const handles: DatabaseHandle[] = [];
    let model: SlowModelServer;
    const open = async () => {
      const h = await openDatabase({ databaseUrl, dataDir, pgSchema: schema });
      handles.push(h);
      return h.db;
    };
    beforeAll(async () => {
      model = await startSlowModelServer({
        promptTokensPerSecond: 50_000,
        generatedTokensPerSecond: 1000,
        replyTokens: 10,
        slots: 2,
      });
      await open(); // creates the schema once, before the others open it
    });
    afterAll(async () => {
      await handles[0]?.db.schema.dropSchema(schema).cascade().execute();
      for (const h of handles) await h.close();
      await model?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const scheduled = async () => {
      const db = await open();
      return new ScheduledModel(new OpenAIModel({ baseUrl: model.url, timeoutMs: 30_000 }), {
        capacity: 2,
        preempt: true,
        loadWaitMs: 0,
        shared: new SharedSlots(db, 2, 2000),
      });
    };

    it('never sends the model server more than AI_PARALLEL calls from all processes', async () => {
      const processes = [await scheduled(), await scheduled(), await scheduled()];
      model.calls.length = 0;
      const calls = processes.flatMap((p, i) => [
        ...Array.from({ length: 4 }, (_, j) =>
          generate(p, [{ role: 'user', content: `batch ${i}.${j}` }], { owner: `u${j}` }),
        ),
        ...Array.from({ length: 2 }, (_, j) =>
          generate(p, [{ role: 'user', content: `chat ${i}.${j}` }], {
            priority: 'interactive',
            owner: `c${j}`,
          }),
        ),
      ]);
      const replies = await Promise.all(calls);
      expect(replies.every((r) => r.length > 0)).toBe(true);
      expect(model.calls).toHaveLength(18);
      expect(model.maxOpen).toBeLessThanOrEqual(2);
      // Batch calls never held both slots: at most one ran at any moment.
      const batch = model.calls.filter((c) => c.body.messages[0]!.content.startsWith('batch'));
      for (const c of batch) {
        const overlapping = batch.filter(
          (o) => o !== c && o.startedAt! < c.endedAt! && c.startedAt! < o.endedAt!,
        );
        expect(overlapping).toEqual([]);
      }
      for (const p of processes) await p.close();
    });

    it("gives a chat slot 0, the people's slot, and document work the highest free one", async () => {
      const [p1, p2] = [new SharedSlots(await open(), 3), new SharedSlots(await open(), 3)];
      try {
        const chat = await p1.acquire('interactive', 'person');
        expect(chat.slot).toBe(0);
        const documents = [await p2.acquire('batch', 'A'), await p1.acquire('batch', 'B')];
        expect(documents.map((l) => l.slot)).toEqual([2, 1]);
        // Slot 0 taken: the next chat takes the lowest free one.
        await documents[1]!.release();
        const second = await p2.acquire('interactive', 'other');
        expect(second.slot).toBe(1);
      } finally {
        // Every slot these two hold is free again.
        await p1.close();
        await p2.close();
      }
    }, 60_000);

    it('sends a chat to slot 0 of the model server: document work from another process gets slot 1 meanwhile', async () => {
      const modelProcess = async () =>
        new ScheduledModel(
          new OpenAIModel({ baseUrl: model.url, timeoutMs: 30_000, cachePrompt: true }),
          { capacity: 2, preempt: true, loadWaitMs: 0, shared: new SharedSlots(await open(), 2) },
        );
      const [chatting, summarizing] = [await modelProcess(), await modelProcess()];
      model.calls.length = 0;
      const release = model.hold();
      try {
        const chat = generate(chatting, [{ role: 'user', content: 'chat question' }], {
          priority: 'interactive',
          owner: 'reader',
        });
        await expect.poll(() => model.calls.length, { timeout: 10_000 }).toBe(1);
        // Had the chat taken slot 1, the document would wait for it though slot 0 is idle.
        const document = generate(summarizing, [{ role: 'user', content: 'batch part' }], {
          owner: 'writer',
        });
        await expect.poll(() => model.calls.length, { timeout: 10_000 }).toBe(2);
        release();
        await Promise.all([document, chat]);
        const slotOf = (text: string) =>
          model.calls.find((c) => c.body.messages[0]!.content === text)?.body.id_slot;
        expect(slotOf('chat question')).toBe(0);
        expect(slotOf('batch part')).toBe(1);
      } finally {
        release();
        await chatting.close();
        await summarizing.close();
      }
    }, 60_000);

    it("takes turns between owners across processes: one owner's many waiting calls go after another's", async () => {
      const [p1, p2] = [new SharedSlots(await open(), 2), new SharedSlots(await open(), 2)];
      const db = handles[0]!.db;
      const first = await p1.acquire('batch', 'A');
      const order: string[] = [];
      const waiting = [
        ...[1, 2, 3].map((i) =>
          p1.acquire('batch', 'A').then((lease) => (order.push(`A${i}`), lease)),
        ),
      ];
      const listed = async () =>
        (await db.selectFrom('ai_slot_waiters').select('owner').execute()).length;
      await expect.poll(listed, { timeout: 10_000 }).toBe(3);
      waiting.push(p2.acquire('batch', 'B').then((lease) => (order.push('B'), lease)));
      await expect.poll(listed, { timeout: 10_000 }).toBe(4);
      await first.release();
      // One batch slot of two: each release lets the next in turn in.
      for (let i = 0; i < 4; i++) {
        await expect.poll(() => order.length, { timeout: 10_000 }).toBe(i + 1);
        const lease = await waiting[['A1', 'A2', 'A3', 'B'].indexOf(order[i]!)]!;
        await lease.release();
      }
      expect(order[0]).toBe('B');
      await p1.close();
      await p2.close();
    }, 60_000);

    it('frees the slots of a process that dies, within its lease', async () => {
      let holder: NodeProcess | undefined;
      try {
        holder = (
          await startNodeProcess({
            entry: 'apps/server/test/shared-slot-holder.ts',
            env: { DATABASE_URL: databaseUrl!, PG_SCHEMA: schema, SLOTS: '2', TAKE: '2' },
            ready: /held/,
          })
        ).process;
        const db = handles[0]!.db;
        const held = await db.selectFrom('ai_slots').select('holder').execute();
        expect(held.filter((r) => r.holder !== null)).toHaveLength(2);
        await holder.kill('SIGKILL');
        // The dead process no longer renews: another process gets a slot once the lease expires
        // (the holder's is 5 s), without anyone releasing it.
        const other = new SharedSlots(db, 2);
        const lease = await other.acquire('interactive', 'next', AbortSignal.timeout(20_000));
        await lease.release();
        await other.close();
      } finally {
        await holder?.kill('SIGKILL');
      }
    }, 60_000);

    it('takes slots again once the database is back, when its first call found it down', async () => {
      const db = handles[0]!.db;
      // The database refusing connections (as while PostgreSQL restarts) for the first calls.
      let down = true;
      const flaky = new Proxy(db, {
        get(target, key) {
          if (down && key === 'insertInto')
            return () => {
              throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
                code: 'ECONNREFUSED',
              });
            };
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      const slots = new SharedSlots(flaky, 2);
      await expect(slots.acquire('interactive', 'early')).rejects.toThrow(/ECONNREFUSED/);
      down = false;
      const lease = await slots.acquire('interactive', 'later', AbortSignal.timeout(10_000));
      expect(lease.slot).toBe(0);
      await lease.release();
      await slots.close();
    });
  },
);
