// How every custom request is answered: its params checked against the protocol's schema,
// cancellation turned into an AbortSignal, and any failure answered as an LSP error for that
// request, never a crash. Apart from server.ts so that requests.ts registers through it without
// importing the server.

import {
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
} from 'vscode-languageserver/node';
import type { RequestType } from 'vscode-languageserver-protocol';
import { problemsWith, type Schema } from '../../../shared/schema.ts';
import { unreachableReason } from '../engine/storeRetry.ts';
import { isStoreUnreachable } from '../store/transientFailure.ts';

export type RequestDefinition<P, R> = { method: string; type: RequestType<P, R, void>; params: Schema<P> };
export type Handler<P, R> = (params: P, signal: AbortSignal) => Promise<R>;

/**
 * Registers one request: params are checked against the protocol's schema, cancellation becomes
 * an AbortSignal, and every failure is answered as an LSP error.
 */
export function handle<P, R>(
  connection: Connection,
  definition: RequestDefinition<P, R>,
  handler: Handler<P, R>,
  log: (message: string) => void,
): void {
  connection.onRequest(definition.type, async (raw: unknown, token: CancellationToken) => {
    const params = raw ?? {};
    const problems = problemsWith(definition.params, params);
    if (problems.length > 0) {
      return new ResponseError(ErrorCodes.InvalidParams, `${definition.method}: ${problems.join('; ')}`);
    }
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      if (token.isCancellationRequested) controller.abort();
      const result = await handler(params as P, controller.signal);
      if (controller.signal.aborted) return new ResponseError(LSPErrorCodes.RequestCancelled, `${definition.method} was cancelled`);
      return result;
    } catch (error) {
      if (controller.signal.aborted) return new ResponseError(LSPErrorCodes.RequestCancelled, `${definition.method} was cancelled`);
      if (error instanceof ResponseError) return error;
      if (isStoreUnreachable(error)) {
        // A store server that is down is one line, not a stack; the folder's status says where.
        const reason = `${definition.method} failed: store unreachable (${unreachableReason(error)})`;
        log(reason);
        return new ResponseError(ErrorCodes.InternalError, reason);
      }
      log(`${definition.method} failed: ${(error as Error).stack ?? String(error)}`);
      return new ResponseError(ErrorCodes.InternalError, `${definition.method} failed: ${(error as Error).message}`);
    } finally {
      subscription.dispose();
    }
  });
}
