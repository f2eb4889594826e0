/**
 * Reads a server-sent-event answer (the chat's tokens, the progress of long work) event by event.
 * `onEvent` returns a value to stop reading and resolve with it; the stream ending first resolves
 * with undefined, and so does `signal` aborting (the reading stops even where the body's source
 * does not notice the abort).
 */
export async function readEvents<T>(
  stream: ReadableStream<Uint8Array>,
  onEvent: (event: string, data: unknown) => T | undefined,
  signal?: AbortSignal,
): Promise<T | undefined> {
  const reader = stream.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  const decoder = new TextDecoder();
  let buffer = '';
  const handle = (raw: string): T | undefined => {
    let event = 'message';
    const data: string[] = [];
    for (const line of raw.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    return data.length ? onEvent(event, JSON.parse(data.join('\n'))) : undefined;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const result = handle(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (result !== undefined) return result;
      }
      if (done) return buffer.trim() ? handle(buffer) : undefined;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
}
