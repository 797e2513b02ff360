// A request's target (`/api/v1/scrape/shortvideo/profile?…`) read as the WHATWG URL parser reads it: its path and its
// query. A plain path (segments of letters, digits, `_`, `-`, `~` and `.`, none starting with a dot, no query) is its own
// path, and is not parsed: that is almost every request, and parsing took a noticeable share of each.

// One `/` before each segment, and no segment that could be a dot segment (`.`, `..`): nothing to backtrack over.
const plainPath = /^(?:\/[\w~-][\w.~-]*)*\/?$/;

/** The path of a request's target, and its query parameters, parsed when read. */
export class Target {
  readonly path: string;
  readonly #url: URL | undefined;

  constructor(raw: string) {
    if (raw.startsWith("/") && plainPath.test(raw)) {
      this.path = raw;
    } else {
      this.#url = new URL(raw, "http://gateway");
      this.path = this.#url.pathname;
    }
  }

  get query(): URLSearchParams {
    return this.#url?.searchParams ?? new URLSearchParams();
  }
}
