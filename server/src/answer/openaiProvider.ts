// Any OpenAI-compatible chat endpoint (Ollama, LM Studio, llama.cpp's server, vLLM…) by URL. The
// passages are sent to that URL: a local server keeps them on the machine, a remote one does not
// (and over plain http only with the user's opt-in, never with an API key: endpointPolicy.ts).
// A failure to get a response (unreachable, timeout, an HTTP error status) is a ProviderError; a
// response that arrives but holds no model output is returned as malformed, to be rejected with
// its reason like any other unusable reply.

import { checkEndpointTransport } from './endpointPolicy.ts';
import { ProviderError, type AnswerPrompt, type AnswerProvider, type ProviderOutput } from './provider.ts';
import { ANSWER_SCHEMA, DEFAULT_MAX_TOKENS } from './schema.ts';

export interface OpenAiProviderOptions {
  /** The server's base URL (e.g. http://localhost:11434/v1) or its full …/chat/completions URL. */
  endpoint: string;
  /** The model name the server expects; servers that host one model ignore it. */
  model: string;
  /** Sent as a bearer token when set; never over plain http to another machine. */
  apiKey?: string;
  /** The user opted in to plain http to another machine (endpointPolicy.ts). */
  allowInsecure?: boolean;
  maxTokens?: number;
}

const DEFAULT_MODEL = 'default';
const ERROR_BODY = 200;

export function chatCompletionsUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ProviderError(`not a URL: "${endpoint}" (--endpoint or RELATA_LLM_ENDPOINT, e.g. http://localhost:11434/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError(`not an http(s) URL: ${endpoint}`);
  if (!url.pathname.endsWith('/chat/completions')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

function describeFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return String((signal.reason as Error)?.message ?? signal.reason);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export class OpenAiProvider implements AnswerProvider {
  readonly name: string;
  private readonly url: URL;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.url = chatCompletionsUrl(options.endpoint);
    checkEndpointTransport(this.url, { allowInsecure: options.allowInsecure ?? false, hasApiKey: Boolean(options.apiKey) });
    this.name = `endpoint:${options.model || DEFAULT_MODEL}@${this.url.origin}${this.url.pathname}`;
  }

  async generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    const body = {
      model: this.options.model || DEFAULT_MODEL,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      temperature: 0,
      max_tokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      stream: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: prompt.output?.name ?? 'relata_answer', strict: true, schema: prompt.output?.schema ?? ANSWER_SCHEMA },
      },
    };
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted && signal.reason instanceof ProviderError) throw signal.reason;
      throw new ProviderError(`could not get an answer from ${this.url}: ${describeFailure(error, signal)}`);
    }
    if (!response.ok) {
      throw new ProviderError(`${this.url} answered HTTP ${response.status}: ${text.slice(0, ERROR_BODY).trim() || response.statusText}`);
    }
    return readCompletion(text);
  }

  async close(): Promise<void> {}
}

/** The first choice's message content of a chat completion, or why there is none. */
function readCompletion(body: string): ProviderOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'malformed', reason: `the endpoint's response is not JSON: "${body.slice(0, 80)}"` };
  }
  const choice = (parsed as { choices?: unknown }).choices;
  const first = Array.isArray(choice) ? (choice[0] as { message?: { content?: unknown } } | undefined) : undefined;
  const content = first?.message?.content;
  if (typeof content === 'string') return { kind: 'text', text: content };
  if (content === null || content === undefined) {
    return { kind: 'malformed', reason: Array.isArray(choice) ? 'the endpoint\'s response has no message content' : 'the endpoint\'s response has no "choices"' };
  }
  return { kind: 'malformed', reason: 'the endpoint\'s message content is not text' };
}
