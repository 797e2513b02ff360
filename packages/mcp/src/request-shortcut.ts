import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";

type RequestPath = (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;

/** What answers a tool call: its name and arguments, and the signal the agent's cancellation aborts. */
export type ToolCallHandler = (params: CallToolRequest["params"], signal: AbortSignal) => Promise<CallToolResult>;

/**
 * The SDK's `Server`, with two shortcuts where messages arrive, each measured by `pnpm bench`:
 * - The SDK's protocol tells a message's kind by trying the two response schemas first: for every request both fail,
 *   and each failed zod parse builds its issues and an error (22 µs each here, with the garbage they leave about 85 µs
 *   of a 600 µs tool call). A message with a `method` is never a response (both response schemas are strict and have
 *   no `method`), so a request the SDK's own `isJSONRPCRequest` accepts goes straight to the SDK's own request path.
 * - A tool call (`serveToolCalls`) that asks for no task is answered here, as the SDK's request path would: its
 *   params parsed by the SDK's schema, a cancellation signal registered where the SDK's `notifications/cancelled`
 *   finds it, the result or the error sent back, nothing sent once cancelled. What it skips per call (a second parse of
 *   the request, one of the result, the task checks, the `extra` object and its closures) was about 3% of a tool call.
 * Every other message takes the SDK's way; and where the SDK's protocol lacks what a shortcut uses (another version),
 * or the transport had a handler of its own, nothing changes.
 */
export class ScraperMcpServer extends Server {
  #toolCalls: ToolCallHandler | undefined;

  /** Answers `tools/call` with `handler`, on the SDK's way as well (for the calls the shortcut leaves to it). */
  serveToolCalls(handler: ToolCallHandler): void {
    this.#toolCalls = handler;
    this.setRequestHandler(CallToolRequestSchema, (request, extra) => handler(request.params, extra.signal));
  }

  override async connect(transport: Transport): Promise<void> {
    const ownHandler = transport.onmessage;
    await super.connect(transport);
    const sdkWay = transport.onmessage;
    const self = this as unknown as { _onrequest?: RequestPath; _requestHandlerAbortControllers?: unknown };
    const requestPath = self._onrequest;
    if (ownHandler !== undefined || sdkWay === undefined || typeof requestPath !== "function") return;
    const controllers = self._requestHandlerAbortControllers instanceof Map ? (self._requestHandlerAbortControllers as Map<unknown, AbortController>) : undefined;
    transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
      if (!("method" in message && isJSONRPCRequest(message))) return sdkWay(message, extra);
      const params = message.method === "tools/call" && this.#toolCalls && controllers ? plainToolCall(message) : undefined;
      if (params && controllers) this.#callTool(transport, message.id, params, controllers);
      else requestPath.call(this, message, extra);
    };
  }

  #callTool(transport: Transport, id: JSONRPCRequest["id"], params: CallToolRequest["params"], controllers: Map<unknown, AbortController>): void {
    const controller = new AbortController();
    controllers.set(id, controller);
    let answered: Promise<CallToolResult>;
    try {
      answered = (this.#toolCalls as ToolCallHandler)(params, controller.signal);
    } catch (error) {
      // A handler that throws before its promise is answered as one that rejects, as on the SDK's way.
      answered = Promise.reject(error);
    }
    answered
      .then(
        (result) => ({ jsonrpc: "2.0" as const, id, result }),
        (error: { code?: unknown; message?: string; data?: unknown }) => ({
          jsonrpc: "2.0" as const,
          id,
          error: {
            code: Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError,
            message: error.message ?? "Internal error",
            ...(error.data !== undefined ? { data: error.data } : {}),
          },
        }),
      )
      .then((answer) => (controller.signal.aborted ? undefined : transport.send(answer)))
      .catch((error) => this.onerror?.(new Error(`Failed to send response: ${error}`)))
      .finally(() => {
        if (controllers.get(id) === controller) controllers.delete(id);
      });
  }
}

/** A tool call's params, if it is one the shortcut answers: well formed, and asking for no task nor related to one. */
function plainToolCall(request: JSONRPCRequest): CallToolRequest["params"] | undefined {
  const parsed = CallToolRequestSchema.safeParse(request);
  if (!parsed.success) return undefined;
  const { params } = parsed.data;
  return params.task === undefined && params._meta?.[RELATED_TASK_META_KEY] === undefined ? params : undefined;
}
