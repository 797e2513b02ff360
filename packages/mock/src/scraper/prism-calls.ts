import type * as PrismModule from "../prism.js";

// Calls to Prism, which is loaded when a call first needs it: its bundle takes longer to load than the rest of the
// sandbox takes to start.

type Prism = typeof PrismModule;
type Instance = ReturnType<Prism["createInstance"]>;

export type PrismOperation = Awaited<ReturnType<Prism["getHttpOperationsFromSpec"]>>[number];

/** How Prism should pick the response: Prism's own per-request mock options. */
export interface Choice {
  code?: number | undefined;
  exampleKey?: string | undefined;
  dynamic: boolean;
  seed?: string | undefined;
}

export interface EngineRequest {
  headers: Record<string, string>;
  body: unknown;
}

export type EngineAnswer =
  | { ok: true; status: number; contentType: string; body: unknown }
  /** Prism could not satisfy the choice (an unknown example name, say): its explanation. */
  | { ok: false; detail: string };

let loading: Promise<Prism> | undefined;

/**
 * Prism, loaded once. Dynamic answers carry no invented extra properties: Prism's CLI exposes this json-schema-faker
 * option as `--json-schema-faker-fillProperties`; in process it is set on the instance Prism itself loads.
 */
export function loadPrism(): Promise<Prism> {
  loading ??= import("../prism.js").then((prism) => {
    prism.JSONSchemaFaker.option({ fillProperties: false });
    return prism;
  });
  return loading;
}

/** Whether Prism has been loaded: a sandbox that has served only what the build prepared has not. */
export const prismLoaded = (): boolean => loading !== undefined;

const ignore = () => {};
const silent = { info: ignore, debug: ignore, warn: ignore, error: ignore, success: ignore, trace: ignore, fatal: ignore, child: () => silent };

/** A Prism instance that only mocks: the surfaces check requests, keys and bodies themselves. */
export function mockingInstance(prism: Prism): Instance {
  return prism.createInstance(
    { mock: { dynamic: false }, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined, isProxy: false },
    { logger: silent as unknown as Parameters<Prism["createInstance"]>[1]["logger"] },
  );
}

/** Prism's answer to one request of an operation. */
export async function ask(instance: Instance, operation: PrismOperation, request: EngineRequest, choice: Choice): Promise<EngineAnswer> {
  const method = operation.method as "post";
  const input = { method, url: { path: operation.path }, headers: request.headers, body: request.body };
  // A fresh `mock` object per request: Prism writes the negotiated media types into it.
  const result = await instance.request(input, [operation], { mock: { ...choice } } as Parameters<Instance["request"]>[2])();
  if (result._tag === "Left") return { ok: false, detail: (result.left as { detail?: string }).detail || result.left.message };
  const { statusCode, headers = {}, body } = result.right.output;
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "application/json";
  return { ok: true, status: statusCode, contentType: String(contentType), body };
}

/**
 * What a static answer is known by: the operation, the status and example asked for, and the request's headers (Prism
 * negotiates the media type from `Accept`), apart by NUL, which no header value, status or example name holds. Static
 * answers do not depend on the body; dynamic ones are seeded by it and have no key.
 */
export function answerKey(operation: PrismOperation, request: EngineRequest, choice: Choice): string | undefined {
  if (choice.dynamic) return undefined;
  let key = `${operation.iid ?? operation.id}\0${choice.code ?? ""}\0${choice.exampleKey ?? ""}`;
  for (const name in request.headers) key += `\0${name}\0${request.headers[name]}`;
  return key;
}

/** The headers of the request every surface makes for an operation's documented success. */
export const jsonHeaders: Readonly<Record<string, string>> = { accept: "application/json", "content-type": "application/json" };
