// A local GGUF model run by node-llama-cpp on the CPU: nothing leaves the machine. Generation is
// constrained by a grammar built from the answer schema, so a working model can only produce the
// JSON shape asked for (a token limit can still cut it off; validate.ts deals with that). The
// native library and the model load on the first question, not when the CLI starts.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Llama, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { ProviderError, type AnswerPrompt, type AnswerProvider, type OutputSchema, type ProviderOutput } from './provider.ts';
import { ANSWER_SCHEMA, DEFAULT_MAX_TOKENS } from './schema.ts';

export interface LlamaProviderOptions {
  modelPath: string;
  /** CPU threads for evaluation. Default 1 on machines with two cores or fewer (two threads under contention measured 27× slower there), else half the cores. */
  threads?: number;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  /** Upper bound on the context (prompt + answer) in tokens; the model's own limit applies too. */
  maxContextTokens?: number;
  /** Where llama.cpp's warnings go; stdout stays reserved for results. */
  log?: (line: string) => void;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  grammar: LlamaGrammar;
  /** Grammars for other output schemas (e.g. pair classification), built on first use. */
  grammars: Map<string, LlamaGrammar>;
}

const DEFAULT_MAX_CONTEXT = 8192;

function defaultThreads(): number {
  const cores = availableParallelism();
  return cores <= 2 ? 1 : Math.floor(cores / 2);
}

export class LlamaProvider implements AnswerProvider {
  readonly name: string;
  private loading: Promise<Loaded> | null = null;
  /** One question at a time: the context holds one sequence, and on a CPU two generations only slow each other. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LlamaProviderOptions) {
    this.name = `local:${path.basename(options.modelPath)}`;
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.loadModel();
    return this.loading;
  }

  private async loadModel(): Promise<Loaded> {
    const modelPath = path.resolve(this.options.modelPath);
    if (!existsSync(modelPath)) throw new ProviderError(`no model file at ${modelPath} (--model or RELATA_LLM_MODEL)`);
    const log = this.options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    let llama: Llama | undefined;
    try {
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
      llama = await getLlama({
        gpu: false,
        build: 'never',
        logLevel: LlamaLogLevel.warn,
        logger: (level, message) => log(`llama.cpp ${level}: ${message.trim()}`),
      });
      const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
      const context = await model.createContext({
        contextSize: { max: Math.min(this.options.maxContextTokens ?? DEFAULT_MAX_CONTEXT, model.trainContextSize) },
        threads: this.options.threads ?? defaultThreads(),
      });
      const grammar = await llama.createGrammarForJsonSchema(ANSWER_SCHEMA);
      return { llama, model, context, grammar, grammars: new Map() };
    } catch (error) {
      this.loading = null;
      await llama?.dispose();
      throw new ProviderError(`cannot load the model ${modelPath}: ${(error as Error).message}`);
    }
  }

  private async grammarFor(loaded: Loaded, output: OutputSchema | undefined): Promise<LlamaGrammar> {
    if (!output) return loaded.grammar;
    let grammar = loaded.grammars.get(output.name);
    if (!grammar) {
      grammar = await loaded.llama.createGrammarForJsonSchema(output.schema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      loaded.grammars.set(output.name, grammar);
    }
    return grammar;
  }

  generate(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    const turn = this.queue.then(() => this.generateNow(prompt, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async generateNow(prompt: AnswerPrompt, signal: AbortSignal): Promise<ProviderOutput> {
    if (signal.aborted) throw signal.reason;
    const loaded = await this.load();
    const { context } = loaded;
    const grammar = await this.grammarFor(loaded, prompt.output);
    const { LlamaChatSession } = await import('node-llama-cpp');
    const sequence = context.getSequence();
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: prompt.system });
    try {
      const text = await session.prompt(prompt.user, {
        grammar,
        maxTokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
        temperature: 0,
        signal,
      });
      return { kind: 'text', text };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ProviderError(`${this.name} failed while generating: ${(error as Error).message}`);
    } finally {
      session.dispose();
      sequence.dispose();
    }
  }

  async close(): Promise<void> {
    const loaded = await this.loading?.catch(() => null);
    this.loading = null;
    if (!loaded) return;
    await loaded.context.dispose();
    await loaded.model.dispose();
    await loaded.llama.dispose();
  }
}
