import { isObject } from "./arguments.js";
import { McpInputError } from "./errors.js";

/** Where a walk stands, carried by its resume token: the listing, its arguments, and the client's exact resume state. */
export interface ResumePoint {
  operation: string;
  arguments: Record<string, unknown>;
  /** The page to fetch again or next (`walk.state.cursor`); absent for the listing's first page. */
  cursor?: string | undefined;
  /** The items of that page already returned (`walk.state.taken`). */
  taken: string[];
}

const version = 1;

/** The point as an opaque token: the agent passes it back verbatim, and the server needs nothing else to go on. */
export function encodeResume(point: ResumePoint): string {
  return Buffer.from(JSON.stringify({ v: version, ...point })).toString("base64url");
}

/** A token back as its point, or an McpInputError naming `resume`: a token this server did not make, or one altered. */
export function decodeResume(token: string): ResumePoint {
  const refused = () => new McpInputError("resume", "resume is not a resume token of this server: pass back the one a walk answered, verbatim.");
  let point: unknown;
  try {
    point = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw refused();
  }
  if (!isObject(point) || point.v !== version || typeof point.operation !== "string" || !isObject(point.arguments)) throw refused();
  const { cursor, taken } = point;
  if ((cursor !== undefined && (typeof cursor !== "string" || cursor === "")) || !Array.isArray(taken) || taken.some((key) => typeof key !== "string")) throw refused();
  return { operation: point.operation, arguments: point.arguments, cursor, taken: taken as string[] };
}
