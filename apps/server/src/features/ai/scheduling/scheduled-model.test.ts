import { describe, expect, it } from 'vitest';
import { generate, type GenerateOptions } from '../language-model';
import { ScheduledModel } from './scheduled-model';
import { ScriptedModel } from './scripted-model.test-helper';

const turns = (text: string) => [{ role: 'user' as const, content: text }];
const tick = () => new Promise((r) => setImmediate(r));

function setup(
  opts: { capacity?: number; preempt?: boolean; loadWaitMs?: number; yieldToPeople?: boolean } = {},
) {
  const inner = new ScriptedModel();
  const model = new ScheduledModel(inner, {
    capacity: opts.capacity ?? 1,
    preempt: opts.preempt ?? true,
    yieldToPeople: opts.yieldToPeople,
    loadWaitMs: opts.loadWaitMs ?? 60_000,
  });
  const call = (text: string, options: GenerateOptions = {}) =>
    generate(model, turns(text), options);
  const running = (text: string) => inner.running().find((c) => c.user === text);
  return { inner, model, call, running };
}

describe('the scheduled model', () => {
  it('runs other model-server work (embeddings) in its turn, and again when preempted', async () => {
    const { inner, model, call, running } = setup();
    const chat = call('hello', { priority: 'interactive', owner: 2 });
    await expect.poll(() => running('hello')).toBeDefined();
    const runs: AbortSignal[] = [];
    const release: (() => void)[] = [];
    const embedding = model.inSlot(
      { priority: 'batch', owner: 1, estimateMs: 10_000 },
      (signal) => {
        runs.push(signal);
        return new Promise<string>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
          release.push(() => resolve('vectors'));
        });
      },
    );
    await tick();
    // The one slot is the chat's: the embeddings wait for it.
    expect(runs).toHaveLength(0);
    running('hello')!.finish();
    await chat;
    await expect.poll(() => runs.length).toBe(1);
    // A person's call takes the slot back; the embeddings run again after it.
    const next = call('again', { priority: 'interactive', owner: 2 });
    await expect.poll(() => runs[0]!.aborted).toBe(true);
    await expect.poll(() => running('again')).toBeDefined();
    expect(runs).toHaveLength(1);
    running('again')!.finish();
    await next;
    await expect.poll(() => runs.length).toBe(2);
    release[1]!();
    await expect(embedding).resolves.toBe('vectors');
    expect(inner.calls.map((c) => c.user)).toEqual(['hello', 'again']);
    expect(model.status().queued).toBe(0);
  });

  it('restarts a preempted batch call, and its caller sees only the complete reply', async () => {
    const { inner, model, call, running } = setup();
    const summary = call('part 1', { priority: 'batch', owner: 1 });
    await tick();
    running('part 1')!.send('half of a');
    await tick();
    const chat = call('hello', { priority: 'interactive', owner: 2 });
    await tick();
    // The batch call was interrupted for the chat, which runs alone in the one slot.
    expect(inner.calls[0]!.signal.aborted).toBe(true);
    await expect.poll(() => running('hello')).toBeDefined();
    expect(inner.running()).toHaveLength(1);
    running('hello')!.send('hi there');
    running('hello')!.finish();
    await expect(chat).resolves.toBe('hi there');
    // Then the summary's call runs again from the start.
    await expect.poll(() => running('part 1')).toBeDefined();
    running('part 1')!.send('the whole part');
    running('part 1')!.finish();
    await expect(summary).resolves.toBe('the whole part');
    expect(inner.calls.map((c) => c.user)).toEqual(['part 1', 'hello', 'part 1']);
    expect(model.status().queued).toBe(0);
  });

  it("with slots on one processor, a batch call yields until the chat's first piece, then completes", async () => {
    const { inner, call, running } = setup({ capacity: 2, yieldToPeople: true });
    const summary = call('part 1', { priority: 'batch', owner: 1 });
    await expect.poll(() => running('part 1')).toBeDefined();
    running('part 1')!.send('half of a');
    const chat = call('hello', { priority: 'interactive', owner: 2 });
    await expect.poll(() => running('hello')).toBeDefined();
    // The chat has the other slot, and the summary's call beside it is cancelled…
    expect(inner.calls[0]!.signal.aborted).toBe(true);
    await tick();
    // …and comes back only once the chat's prompt is evaluated (its first piece).
    expect(running('part 1')).toBeUndefined();
    running('hello')!.send('hi');
    await expect.poll(() => running('part 1')).toBeDefined();
    running('hello')!.finish();
    await expect(chat).resolves.toBe('hi');
    running('part 1')!.send('the whole part');
    running('part 1')!.finish();
    await expect(summary).resolves.toBe('the whole part');
  });

  it("stops a caller's queued and running calls when it goes away, and frees the slot", async () => {
    const { inner, call, running } = setup({ capacity: 1 });
    const cancel = new AbortController();
    const first = call('a1', { priority: 'batch', owner: 1, signal: cancel.signal });
    const second = call('a2', { priority: 'batch', owner: 1, signal: cancel.signal });
    const other = call('b1', { priority: 'batch', owner: 2 });
    await tick();
    expect(running('a1')).toBeDefined();
    cancel.abort(new Error('client went away'));
    await expect(first).rejects.toThrow('client went away');
    await expect(second).rejects.toThrow('client went away');
    await expect.poll(() => running('b1')).toBeDefined();
    running('b1')!.finish();
    await other;
    expect(inner.calls.map((c) => c.user)).toEqual(['a1', 'b1']);
  });

  it('waits for a model that is loading, then runs the call', async () => {
    const { inner, model, call, running } = setup();
    inner.setStatus({ state: 'loading', reason: 'the model is loading' });
    const reply = call('early');
    await tick();
    expect(inner.calls).toHaveLength(0);
    inner.setStatus({ state: 'ready' });
    await expect.poll(() => running('early')).toBeDefined();
    running('early')!.send('ok');
    running('early')!.finish();
    await expect(reply).resolves.toBe('ok');
    expect(model.status().state).toBe('ready');
  });

  it('gives up on a model still loading after AI_LOAD_WAIT_MS, with a 503', async () => {
    const { inner, call } = setup({ loadWaitMs: 30 });
    inner.setStatus({ state: 'loading', reason: 'the model is loading' });
    await expect(call('too early')).rejects.toMatchObject({
      statusCode: 503,
      message: 'The model is still loading; try again in a moment.',
      detail: expect.stringMatching(/still loading after 30 ms \(AI_LOAD_WAIT_MS\)/),
    });
    expect(inner.calls).toHaveLength(0);
  });

  it('answers 503 with the percentage and Retry-After while the model downloads', async () => {
    const { inner, call } = setup();
    inner.setStatus({
      state: 'downloading',
      progress: 0.45,
      reason: 'the model is downloading (45%); try again when it is ready',
    });
    await expect(call('hi')).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'retry-after': '30' },
      message: expect.stringMatching(/downloading \(45%\)/),
    });
  });

  it('streams an interactive reply piece by piece', async () => {
    const { model, running } = setup();
    const pieces: string[] = [];
    const done = (async () => {
      for await (const p of model.stream(turns('stream me'), { priority: 'interactive' }))
        pieces.push(p);
    })();
    await expect.poll(() => running('stream me')).toBeDefined();
    running('stream me')!.send('one');
    await expect.poll(() => pieces).toEqual(['one']);
    running('stream me')!.send(' two');
    running('stream me')!.finish();
    await done;
    expect(pieces).toEqual(['one', ' two']);
  });

  it('takes a call that names no priority as batch: read whole, behind a chat', async () => {
    const { inner, call, running } = setup();
    const hold = call('hold', { priority: 'interactive', owner: 9 });
    await tick();
    const unnamed = call('unnamed', { owner: 1 });
    const chat = call('chat', { priority: 'interactive', owner: 2 });
    await tick();
    running('hold')!.finish();
    await hold;
    await expect.poll(() => running('chat')).toBeDefined();
    running('chat')!.finish();
    await chat;
    await expect.poll(() => running('unnamed')).toBeDefined();
    running('unnamed')!.send('a');
    running('unnamed')!.send('b');
    running('unnamed')!.finish();
    await expect(unnamed).resolves.toBe('ab');
    expect(inner.calls.map((c) => c.user)).toEqual(['hold', 'chat', 'unnamed']);
  });

  it('preempts a batch call once at most: the second chat waits for it', async () => {
    const { inner, call, running } = setup();
    const summary = call('part', { priority: 'batch', owner: 1 });
    await tick();
    const chat1 = call('chat1', { priority: 'interactive', owner: 2 });
    await expect.poll(() => running('chat1')).toBeDefined();
    running('chat1')!.finish();
    await chat1;
    await expect.poll(() => running('part')).toBeDefined();
    const chat2 = call('chat2', { priority: 'interactive', owner: 3 });
    await tick();
    // The resumed call keeps its slot: it was preempted once already.
    expect(inner.calls.filter((c) => c.user === 'part').map((c) => c.signal.aborted)).toEqual([
      true,
      false,
    ]);
    running('part')!.finish();
    await summary;
    await expect.poll(() => running('chat2')).toBeDefined();
    running('chat2')!.finish();
    await chat2;
  });
});
