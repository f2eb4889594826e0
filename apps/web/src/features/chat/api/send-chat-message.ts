import {
  CHAT_STREAM_EVENTS,
  chatDoneEventSchema,
  chatErrorEventSchema,
  chatResponseSchema,
  chatTokenEventSchema,
  type ChatResponse,
} from '@inkwell/contract';
import { ApiError, apiRequest, reportError } from '../../../lib/api-client';
import { messageForStatus } from '../../../lib/api-messages';

/**
 * POST /api/chat, streamed: `Accept: text/event-stream` makes the server send the reply token by
 * token (`token` events, then `done` or `error`). Goes through the one client for the token and
 * the 401 refresh; only the body is read here. A server that answers plain JSON is handled too.
 */
export async function sendChatMessage(
  text: string,
  { onToken, signal }: { onToken: (token: string) => void; signal?: AbortSignal },
): Promise<ChatResponse> {
  const body = new FormData();
  body.append('text', text);
  const response = await apiRequest<Response>('chat', {
    method: 'POST',
    body,
    withCredentials: true,
    responseType: 'response',
    headers: { Accept: 'text/event-stream' },
    signal,
  });
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) {
    return chatResponseSchema.parse(await response.json());
  }
  return readStream(response.body, onToken);
}

async function readStream(
  stream: ReadableStream<Uint8Array>,
  onToken: (token: string) => void,
): Promise<ChatResponse> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const result = handleEvent(buffer.slice(0, end), onToken);
      buffer = buffer.slice(end + 2);
      if (result) {
        void reader.cancel().catch(() => undefined);
        return result;
      }
    }
    if (done) break;
  }
  if (buffer.trim()) {
    const result = handleEvent(buffer, onToken);
    if (result) return result;
  }
  reportError('POST chat failed: the stream ended without a reply');
  throw new ApiError(messageForStatus(0), 0, 'The reply stream ended early');
}

/** Handles one server-sent event; returns the final answer on `done`, throws on `error`. */
function handleEvent(raw: string, onToken: (token: string) => void): ChatResponse | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return undefined;
  const payload: unknown = JSON.parse(data.join('\n'));
  switch (event) {
    case CHAT_STREAM_EVENTS.token:
      onToken(chatTokenEventSchema.parse(payload).text);
      return undefined;
    case CHAT_STREAM_EVENTS.done:
      return chatDoneEventSchema.parse(payload);
    case CHAT_STREAM_EVENTS.error: {
      const { error, status } = chatErrorEventSchema.parse(payload);
      reportError(`POST chat failed: ${status} ${error}`);
      throw new ApiError(messageForStatus(status), status, error);
    }
    default:
      return undefined;
  }
}
