import { json, type SurfaceRequest, type SurfaceResponse } from "../http.js";
import { type ControlAccess, type ControlHead, failure, refusal } from "./guard.js";
import { type SandboxControl, SandboxControlError } from "./plane.js";

// The control API over HTTP, under a path that no surface of the shared host can have (see `controlPath`): what the
// `startMock()` handle does in process, for tests in another process and for the CLI.

/** Where the control API lives: outside every surface's base path and server (checked when the sandbox starts). */
export const controlPath = "/__sandbox";

type Route = (control: SandboxControl, body: Record<string, unknown>, query: URLSearchParams) => Promise<{ status?: number; body: unknown }>;

const number = (query: URLSearchParams, name: string) => (query.has(name) ? Number(query.get(name)) : undefined);

/** `METHOD /path` (below `controlPath`) → what it does. */
const routes: Record<string, Route> = {
  "GET /clock": async (control) => ({ body: await control.clock() }),
  "POST /clock/advance": async (control, body) => ({ body: await control.advance(body.seconds as number) }),
  "POST /reset": async (control, body) => {
    await control.reset(body.credential as string | undefined);
    return { body: { reset: body.credential === undefined ? "all" : "credential" } };
  },
  "POST /balance": async (control, body) => {
    await control.setBalance(body.key as string, body.credits as number);
    return { body: { credits: body.credits } };
  },
  "GET /log": async (control, _body, query) => ({
    body: { entries: await control.log({ operation: query.get("operation") ?? undefined, surface: query.get("surface") ?? undefined, limit: number(query, "limit") }) },
  }),
  "GET /faults": async (control) => ({ body: { faults: await control.faults() } }),
  "POST /faults": async (control, body) => ({ status: 201, body: { fault: await control.inject(body as never) } }),
  "GET /oauth/callback": async (_control, _body, query) => ({ body: Object.fromEntries(query) }),
};

// A redirect URI for OAuth clients with no page of their own (tests, Arazzo workflows): it answers the authorization
// response's parameters (`code`, `state`, `iss`, or `error`, `error_description`) as JSON. A browser reaches it by a
// redirect from any page, and it reads and changes no state: it is open to every caller.
const open = new Set(["GET /oauth/callback"]);

/** The control API of one sandbox: `refuse` reads a call's head before its body, `answer` answers what it let through. */
export interface ControlApi {
  /** Why the call is refused (a foreign origin or Host, no token, not JSON), or `undefined`; `path` is below `controlPath`. */
  refuse(head: ControlHead & { path: string }): SurfaceResponse | undefined;
  /** Answers a call below `controlPath` (`request.path` is the rest of the path). */
  answer(request: SurfaceRequest): Promise<SurfaceResponse>;
}

export function controlApi(control: SandboxControl, access: ControlAccess): ControlApi {
  const refuse: ControlApi["refuse"] = (head) => (open.has(`${head.method} ${head.path}`) ? undefined : refusal(head, access));
  const answer: ControlApi["answer"] = async (request) => {
    const route = routes[`${request.method} ${request.path}`];
    if (!route) {
      const allowed = Object.keys(routes).filter((key) => key.endsWith(` ${request.path}`)).map((key) => key.split(" ")[0] as string);
      if (allowed.length) return failure(405, `${request.method} is not allowed here: use ${allowed.join(" or ")}.`, undefined, { Allow: allowed.join(", ") });
      return failure(404, `No control route at ${controlPath}${request.path}: see the @content-scraper/mock README, "Control API".`);
    }
    let body: unknown = {};
    if (request.body?.length) {
      try {
        body = JSON.parse(request.body.toString("utf8"));
      } catch {
        return failure(400, "The body is not valid JSON.", "body");
      }
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return failure(400, "The body must be a JSON object.", "body");
    try {
      const { status = 200, body: answer } = await route(control, body as Record<string, unknown>, request.query ?? new URLSearchParams());
      return json(status, answer);
    } catch (error) {
      if (error instanceof SandboxControlError) return failure(400, error.message, error.field);
      throw error;
    }
  };
  return { refuse, answer };
}
