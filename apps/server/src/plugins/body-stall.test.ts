import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchBodyStall } from './body-stall';

/**
 * Which silences count as a stall (files.aborted-upload.test.ts shows one over a real socket).
 * The request is a stand-in whose socket progress the test sets; the clock is a fake one.
 */
const STALL_MS = 1000;

class FakeRequest extends EventEmitter {
  complete = false;
  destroyed = false;
  readableLength = 0;
  socket = { bytesRead: 100 };
  constructor(public headers: Record<string, string> = { 'content-length': '5000' }) {
    super();
  }
  destroy() {
    this.destroyed = true;
  }
}

function watch(req: FakeRequest) {
  const onStall = vi.fn();
  watchBodyStall(req as unknown as IncomingMessage, STALL_MS, onStall);
  return onStall;
}

describe('body stall watch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes a request whose body has not moved for the stall time', () => {
    const req = new FakeRequest();
    const onStall = watch(req);
    vi.advanceTimersByTime(STALL_MS);
    expect(onStall).toHaveBeenCalledOnce();
    expect(req.destroyed).toBe(true);
  });

  it('never cuts a slow body that keeps moving', () => {
    const req = new FakeRequest();
    const onStall = watch(req);
    for (let i = 0; i < 50; i++) {
      req.socket.bytesRead += 1; // a byte per period: slow, but alive
      vi.advanceTimersByTime(STALL_MS);
    }
    expect(onStall).not.toHaveBeenCalled();
    expect(req.destroyed).toBe(false);
  });

  it('does not blame the client while bytes wait for the server to read them', () => {
    const req = new FakeRequest();
    req.readableLength = 64 * 1024; // the route's storage is slow: the request is paused
    const onStall = watch(req);
    vi.advanceTimersByTime(10 * STALL_MS);
    expect(onStall).not.toHaveBeenCalled();
    req.readableLength = 0; // read at last, and then the client is silent
    vi.advanceTimersByTime(STALL_MS);
    expect(onStall).toHaveBeenCalledOnce();
  });

  it('stops watching once the body has arrived, and never watches a request without one', () => {
    const done = new FakeRequest();
    const bodiless = new FakeRequest({});
    const onStall = watch(done);
    const onBodilessStall = watch(bodiless);
    done.complete = true;
    done.emit('end');
    vi.advanceTimersByTime(10 * STALL_MS);
    expect(onStall).not.toHaveBeenCalled();
    expect(onBodilessStall).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
