import {
  CHAT_STREAM_EVENTS,
  chatDoneEventSchema,
  chatErrorEventSchema,
  chatReplyEventSchema,
  chatResponseSchema,
  chatTokenEventSchema,
  type ChatResponse,
} from '@inkwell/contract';
import { ApiError, apiRequest, reportError } from '../../../lib/api-client';
import { messageForStatus } from '../../../lib/api-messages';
import { readEvents } from '../../../lib/sse';

/**
 * POST /api/chat, streamed: `Accept: text/event-stream` makes the server send the reply token by
 * token (`token` events, then `done` or `error`). Goes through the one client for the token and
 * the 401 refresh; only the body is read here. A server that answers plain JSON is handled too.
 * `onReplyId` gets the stored reply's id (to stop it, or follow it again after a reload).
 */
export async function sendChatMessage(
  text: string,
  {
    onToken,
    onReplyId,
    signal,
  }: { onToken: (token: string) => void; onReplyId?: (id: number) => void; signal?: AbortSignal },
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
  return readStream(response.body, onToken, onReplyId);
}

/**
 * GET /api/chat/replies/:id/events: a stored reply from its start (the text so far as a first
 * token, then each piece) to its end; a reply still being generated, here or on another server,
 * is followed as it grows.
 */
export async function followChatReply(
  id: number,
  { onToken, signal }: { onToken: (token: string) => void; signal?: AbortSignal },
): Promise<ChatResponse> {
  const response = await apiRequest<Response>(`chat/replies/${id}/events`, {
    withCredentials: true,
    responseType: 'response',
    headers: { Accept: 'text/event-stream' },
    signal,
  });
  if (!response.body) throw new ApiError(messageForStatus(0), 0, 'No reply stream');
  return readStream(response.body, onToken);
}

/** POST /api/chat/replies/:id/stop: the server stops the reply and keeps what it had. */
export function stopChatReply(id: number): Promise<unknown> {
  return apiRequest(`chat/replies/${id}/stop`, { method: 'POST', withCredentials: true });
}

async function readStream(
  stream: ReadableStream<Uint8Array>,
  onToken: (token: string) => void,
  onReplyId?: (id: number) => void,
): Promise<ChatResponse> {
  const result = await readEvents(stream, (event, payload) => {
    switch (event) {
      case CHAT_STREAM_EVENTS.reply:
        onReplyId?.(chatReplyEventSchema.parse(payload).id);
        return undefined;
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
  });
  if (result) return result;
  reportError('POST chat failed: the stream ended without a reply');
  throw new ApiError(messageForStatus(0), 0, 'The reply stream ended early');
}
