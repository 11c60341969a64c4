import type { LlmSettings } from './settings.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The model did not give a usable answer: timeout, HTTP error, not JSON, no choices, empty text. */
export class WriterError extends Error {}

/**
 * One POST {url}/chat/completions in the OpenAI Chat Completions shape ({model, messages}); the
 * answer is choices[0].message.content. Anything else is a WriterError with what went wrong.
 */
export async function chatCompletion(s: LlmSettings, messages: ChatMessage[]): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${s.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}) },
      body: JSON.stringify({ model: s.model, messages, temperature: 0 }),
      signal: AbortSignal.timeout(s.timeoutMs),
    });
  } catch (e) {
    const name = (e as Error).name;
    throw new WriterError(
      name === 'TimeoutError' || name === 'AbortError'
        ? `the writer model did not answer within ${s.timeoutMs} ms`
        : `the writer model could not be reached: ${(e as Error).message}`,
    );
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new WriterError(`the writer model's answer broke off: ${(e as Error).message}`);
  }
  if (!res.ok) throw new WriterError(`the writer model answered HTTP ${res.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WriterError('the writer model answered something that is not JSON');
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    throw new WriterError('the writer model answered without choices[0].message.content');
  if (content.trim() === '') throw new WriterError('the writer model answered an empty text');
  return content;
}
