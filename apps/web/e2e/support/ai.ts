import {
  echoReply,
  startOpenAITestServer,
  type OpenAIMessage,
  type OpenAITestServer,
  type OpenAITestServerOptions,
} from '../../../server/test/openai-test-server';

export type { OpenAITestServer, OpenAITestServerOptions };

/** Marks each kind of AI answer so a scenario can tell which feature produced a message. */
export const AI_MARK = {
  translation: 'TRANSLATED',
  summary: 'SUMMARY OF THE DOCUMENT',
  answer: 'ANSWER FROM THE DOCUMENT',
  filesAnswer: 'ANSWER FROM YOUR FILES',
  proofread: 'EDITOR NOTES',
  sentiment: 'SENTIMENT OVERVIEW',
  accessibility: 'ACCESSIBILITY ADVICE',
  seo: 'SEO ADVICE',
} as const;

/**
 * A deterministic model: it recognises the product's system prompts and answers with a marker
 * (translations name the target language and repeat the text); the chat echoes the question.
 */
export function productReply(messages: OpenAIMessage[]): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const into = /Translate the user's text (?:from \w+ )?into (\w+)/.exec(system);
  if (/professional translator/.test(system) && into) {
    return `${AI_MARK.translation} into ${into[1]}: ${user}`;
  }
  if (/concise summaries/.test(system)) return `${AI_MARK.summary}: it talks about lighthouses.`;
  if (/answer questions about a document/.test(system)) {
    return `${AI_MARK.answer}: the keeper is named Ada [Page 1].`;
  }
  if (/passages given, taken from the user's files/.test(system)) {
    return `${AI_MARK.filesAnswer}: as the first passage says [1].`;
  }
  if (/helpful editor/.test(system)) return `${AI_MARK.proofread}: fix the spelling of "recieve".`;
  if (/overviews of sentiment/.test(system)) return `${AI_MARK.sentiment}: mostly positive.`;
  if (/web accessibility expert/.test(system)) return `${AI_MARK.accessibility}: 1. Add alt text.`;
  if (/technical SEO expert/.test(system)) return `${AI_MARK.seo}: 1. Add a meta description.`;
  const echo = echoReply(messages, { messages });
  return typeof echo === 'string' ? echo : echo.join('');
}

/** The local OpenAI-compatible server the product's AI engine talks to (loopback only). */
export function startProductAi(opts: OpenAITestServerOptions = {}): Promise<OpenAITestServer> {
  return startOpenAITestServer({ reply: productReply, ...opts });
}
