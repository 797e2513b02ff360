// The part of Redocly's plugin API the house rules use. The CLI ships a bundle without types,
// and @redocly/openapi-core (which has them) is not published at the CLI's version.

/** A node of the description: resolved where the walker hands it over, raw (maybe a `$ref`) below that. */
// biome-ignore lint/suspicious/noExplicitAny: description nodes are untyped YAML; the rules check shapes at runtime.
export type Node = { [key: string]: any };

export interface Location {
  source: { absoluteRef: string };
  pointer: string;
  child(path: string | number | (string | number)[]): Location;
}

export interface Context {
  report(problem: { message: string; location?: Location }): void;
  /** Resolves a `$ref` against `from` (default: the current file); other values come back as they are. */
  resolve(node: unknown, from?: string): { node: Node | undefined; location: Location | undefined };
  location: Location;
  key: string | number;
}

/** `node` is null where the YAML leaves a value empty; a hook that throws stops the lint of the whole document. */
type Hook = (node: Node | null, ctx: Context, parents: Record<string, Node>) => void;

/** Keys are node types (`Operation`, `Response`, …); a nested type visits that type below the outer one. */
export interface Visitor {
  enter?: Hook;
  leave?: Hook;
  [type: string]: Visitor | Hook | undefined;
}

export type Rule = (options: Record<string, unknown>) => Record<string, Visitor>;
