// Types of the bodies a guard narrows to, read from an openapi-typescript `operations` interface.

/** An operationId of a set of operations. */
export type OperationId<Ops> = keyof Ops & string;

type Responses<Ops, Id extends keyof Ops> = Ops[Id] extends { responses: infer R } ? R : never;

/** A status an operation documents: `200` or `"200"`, a range such as `"4XX"`, or `"default"`. */
export type DocumentedStatus<Ops, Id extends keyof Ops> =
  | Extract<keyof Responses<Ops, Id>, string | number>
  | `${Extract<keyof Responses<Ops, Id>, number>}`;

// The documented response that applies to a status, as at run time: the exact code, else its range, else `default`.
// A status known only at run time (`number`) may be any of them.
type Fallback<R, S extends string | number> = `${S}` extends `${infer Class}${string}`
  ? `${Class}XX` extends keyof R
    ? `${Class}XX`
    : "default" extends keyof R
      ? "default"
      : never
  : never;
type ResponseKey<R, S extends string | number> = number extends S
  ? keyof R
  : S extends keyof R
    ? S
    : S extends `${infer Code extends number}`
      ? Code extends keyof R
        ? Code
        : Fallback<R, S>
      : Fallback<R, S>;

// The body of each media type `M` names (every documented one unless given); distributes over unions of responses.
type Body<T, M extends string> = T extends { content: infer C } ? C[Extract<keyof C, M>] : never;

export type ResponseBody<Ops, Id extends keyof Ops, S extends string | number, M extends string = string> =
  Responses<Ops, Id> extends infer R ? Body<R[ResponseKey<R, S> & keyof R], M> : never;

/** The request body; `undefined` is part of it where the body is optional (a validator accepts it absent). */
export type RequestBody<Ops, Id extends keyof Ops, M extends string = string> = Ops[Id] extends { requestBody: infer B }
  ? Body<B, M>
  : Ops[Id] extends { requestBody?: infer B }
    ? Body<B, M> | undefined
    : never;

/**
 * The operations of several surfaces (`{ scraper: operations, … }`) as one. An operationId that more than one surface
 * documents is left out: it is ambiguous, so it has to be validated through its surface's own module.
 */
export type MergeOperations<Surfaces> = {
  [Id in { [N in keyof Surfaces]: KnownKeys<Surfaces[N]> }[keyof Surfaces] as IsUnion<OwnersOf<Surfaces, Id>> extends true
    ? never
    : Id]: { [N in keyof Surfaces]: Id extends KnownKeys<Surfaces[N]> ? Surfaces[N][Id] : never }[keyof Surfaces];
};
// A surface without operations (connect, so far) is typed `Record<string, never>`: it names no operationId.
type KnownKeys<T> = string extends keyof T ? never : keyof T;
type OwnersOf<Surfaces, Id> = { [N in keyof Surfaces]: Id extends KnownKeys<Surfaces[N]> ? N : never }[keyof Surfaces];
type IsUnion<T, All = T> = T extends unknown ? ([All] extends [T] ? false : true) : never;
