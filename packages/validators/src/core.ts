import { type AjvError, describeErrors } from "./messages.js";
import type { DocumentedStatus, OperationId, RequestBody, ResponseBody } from "./types.js";

/** One problem with a body. */
export interface ValidationError {
  /** JSON pointer of the offending value in the body (for a missing or unknown property, the property's own). */
  path: string;
  /** A sentence naming the field and what was expected. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `additionalProperties`, `enum`, `pattern`, `oneOf`, …). */
  keyword: string;
}

/** The outcome of a validation: valid, or every problem found at once. */
export type ValidationResult = { valid: true } | { valid: false; errors: ValidationError[] };

/** Which media type a body is checked as (`application/json` by default). */
export interface BodyOptions<M extends string = string> {
  /**
   * The body's media type (parameters such as `; charset=utf-8` are ignored). By default `application/json`, or
   * `text/plain` for a string body where the response documents it (the scraper's bare 504).
   */
  contentType?: M;
}

/** The validators of one surface, or of all of them (the package entry). */
export interface Validators<Ops> {
  /** The operationIds these validators know. */
  readonly operationIds: readonly OperationId<Ops>[];
  validateRequest(operationId: OperationId<Ops>, body: unknown, options?: BodyOptions): ValidationResult;
  /** `status` is a code (`404` or `"404"`), a documented range (`"4XX"`) or `"default"`; ranges and `default` apply. */
  validateResponse(operationId: OperationId<Ops>, status: number | string, body: unknown, options?: BodyOptions): ValidationResult;
  isRequest<Id extends OperationId<Ops>, M extends string = string>(
    operationId: Id,
    body: unknown,
    options?: BodyOptions<M>,
  ): body is RequestBody<Ops, Id, M>;
  isResponse<Id extends OperationId<Ops>, S extends DocumentedStatus<Ops, Id> | number, M extends string = string>(
    operationId: Id,
    status: S,
    body: unknown,
    options?: BodyOptions<M>,
  ): body is ResponseBody<Ops, Id, S, M>;
}

// What this runtime needs of a generated `<api>.validators.js` module (each module declares these types itself).
type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type Bodies = Readonly<Record<string, string>>;
interface GeneratedModule {
  readonly table: Readonly<
    Record<string, { readonly request?: { readonly required: boolean; readonly content: Bodies }; readonly responses: Readonly<Record<string, Bodies>> }>
  >;
}
const valid: ValidationResult = Object.freeze({ valid: true });
// Stands in for the validator of an optional request body that is absent.
const absent: Validator = () => true;
const statusPattern = /^([1-5])(\d\d|XX)$/;

/** The documented responses that could apply to `status`, most specific first: the code, its range, `default`. */
function statusKeys(status: number | string): string[] {
  const text = String(status);
  if (text === "default") return [text];
  const match = statusPattern.exec(text.toUpperCase());
  if (!match) throw new Error(`"${text}" is not an HTTP status: expected a code from 100 to 599, a range such as 4XX, or default`);
  return [match[0], `${match[1]}XX`, "default"];
}

const list = (keys: readonly string[]) => (keys.length ? keys.join(", ") : "none");

function mediaType(content: Bodies, body: unknown, options: BodyOptions | undefined, what: string): string {
  const wanted =
    options?.contentType?.split(";")[0]?.trim().toLowerCase() ??
    (typeof body === "string" && Object.hasOwn(content, "text/plain") ? "text/plain" : "application/json");
  if (!Object.hasOwn(content, wanted)) throw new Error(`${what} documents no ${wanted} body (documented: ${list(Object.keys(content))})`);
  return wanted;
}

/** Binds the runtime to one surface's generated module; `Ops` is its openapi-typescript `operations` interface. */
export function createValidators<Ops>(surface: string, module: GeneratedModule): Validators<Ops> {
  const { table } = module;
  // The table names the module's exports; the declarations type each of them as a validator.
  const exported = module as unknown as Readonly<Record<string, Validator>>;

  function operation(id: string) {
    const entry = Object.hasOwn(table, id) ? table[id] : undefined;
    if (!entry) throw new Error(`Unknown operationId "${id}": the ${surface} description has no such operation`);
    return entry;
  }

  function requestValidator(id: string, body: unknown, options?: BodyOptions): Validator {
    const { request } = operation(id);
    if (!request) throw new Error(`${id} (${surface}) documents no request body`);
    if (body === undefined && !request.required) return absent;
    return exported[request.content[mediaType(request.content, body, options, `${id} (${surface}) request`)] as string] as Validator;
  }

  function responseValidator(id: string, status: number | string, body: unknown, options?: BodyOptions): Validator {
    const { responses } = operation(id);
    const key = statusKeys(status).find((candidate) => Object.hasOwn(responses, candidate));
    if (key === undefined) {
      throw new Error(`${id} (${surface}) documents no response for status ${status} (documented: ${list(Object.keys(responses))})`);
    }
    const content = responses[key] as Bodies;
    return exported[content[mediaType(content, body, options, `${id} (${surface}) ${key} response`)] as string] as Validator;
  }

  const check = (validate: Validator, body: unknown): ValidationResult =>
    validate(body) ? valid : { valid: false, errors: describeErrors(validate.errors ?? [], body) };

  return {
    operationIds: Object.keys(table) as OperationId<Ops>[],
    validateRequest: (id, body, options) => check(requestValidator(id, body, options), body),
    validateResponse: (id, status, body, options) => check(responseValidator(id, status, body, options), body),
    // The guards skip the translation of errors: they only need the verdict. (Their narrowed types are the interface's;
    // `body is never` here just makes a boolean function fit each of them.)
    isRequest: (id, body, options): body is never => requestValidator(id, body, options)(body),
    isResponse: (id, status, body, options): body is never => responseValidator(id, status, body, options)(body),
  };
}

/** A surface's validators as the entry dispatches to them: any operationId of theirs, any status. */
interface Surface {
  readonly operationIds: readonly string[];
  validateRequest(operationId: string, body: unknown, options?: BodyOptions): ValidationResult;
  validateResponse(operationId: string, status: number | string, body: unknown, options?: BodyOptions): ValidationResult;
  isRequest(operationId: string, body: unknown, options?: BodyOptions): boolean;
  isResponse(operationId: string, status: number | string, body: unknown, options?: BodyOptions): boolean;
}

/**
 * The validators of several surfaces behind one set of functions, dispatching on the operationId. An operationId that
 * more than one surface documents is ambiguous: it throws, naming the surfaces' own modules.
 */
export function combineSurfaces<Ops>(surfaces: Readonly<Record<string, Surface>>): Validators<Ops> {
  const owners = new Map<string, string[]>();
  for (const [name, validators] of Object.entries(surfaces)) {
    for (const id of validators.operationIds) owners.set(id, [...(owners.get(id) ?? []), name]);
  }
  const surfaceOf = (id: string) => {
    const names = owners.get(id) ?? [];
    if (names.length > 1) {
      const modules = names.map((name) => `@content-scraper/validators/${name}`).join(" or ");
      throw new Error(`operationId "${id}" is ambiguous (documented by ${names.join(" and ")}): use ${modules}`);
    }
    const surface = names[0] === undefined ? undefined : surfaces[names[0]];
    if (!surface) throw new Error(`Unknown operationId "${id}": no description (${Object.keys(surfaces).join(", ")}) has such an operation`);
    return surface;
  };
  return {
    operationIds: [...owners].flatMap(([id, names]) => (names.length === 1 ? [id as OperationId<Ops>] : [])),
    validateRequest: (id, body, options) => surfaceOf(id).validateRequest(id, body, options),
    validateResponse: (id, status, body, options) => surfaceOf(id).validateResponse(id, status, body, options),
    isRequest: (id, body, options): body is never => surfaceOf(id).isRequest(id, body, options),
    isResponse: (id, status, body, options): body is never => surfaceOf(id).isResponse(id, status, body, options),
  };
}
