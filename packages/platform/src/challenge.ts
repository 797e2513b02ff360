// WWW-Authenticate (RFC 9110 §11.6.1) with the Bearer parameters of RFC 6750 §3 and RFC 9728 §5.1:
//   WWW-Authenticate = #challenge
//   challenge        = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param       = token BWS "=" BWS ( token / quoted-string )
// A header may hold several challenges, separated by the same commas as their parameters; a parameter is told from
// the next challenge's scheme by the "=" after its name.

/** One challenge: its scheme as sent, its parameters by lowercased name, or its token68. */
export interface Challenge {
  scheme: string;
  params: Readonly<Record<string, string>>;
  token68?: string;
}

/** A `Bearer` challenge, with the parameters the OAuth API sends read out. */
export interface BearerChallenge extends Challenge {
  /** `invalid_token` (on 401) or `insufficient_scope` (on 403) from this API; RFC 6750 also has `invalid_request`. */
  error: string | undefined;
  errorDescription: string | undefined;
  /** The scope to request, space-delimited as sent. */
  scope: string | undefined;
  /** `scope` split on spaces. */
  scopes: string[];
  /** The URL of the protected-resource metadata (RFC 9728). */
  resourceMetadata: string | undefined;
  realm: string | undefined;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
const OWS = /[ \t]*/y;
const SP = / +/y;

/**
 * Every challenge of a `WWW-Authenticate` value. Parsing is lenient: it stops at the first malformed part and returns
 * the challenges read until then, since it runs while handling an error and must not raise one of its own.
 */
export function parseChallenges(header: string): Challenge[] {
  let at = 0;
  const read = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const match = pattern.exec(header);
    if (!match) return undefined;
    at = pattern.lastIndex;
    return match[0];
  };
  const quotedString = (): string | undefined => {
    let value = "";
    for (at++; at < header.length; at++) {
      const char = header[at];
      if (char === "\\" && at + 1 < header.length) value += header[++at];
      else if (char === '"') {
        at++;
        return value;
      } else value += char;
    }
    return undefined;
  };
  const skipSeparators = () => {
    for (read(OWS); header[at] === ","; read(OWS)) at++;
  };

  const challenges: Challenge[] = [];
  for (;;) {
    skipSeparators();
    if (at >= header.length) return challenges;
    const scheme = read(TOKEN);
    if (scheme === undefined) return challenges;
    const params: Record<string, string> = {};
    const challenge: Challenge = { scheme, params };
    challenges.push(challenge);
    if (read(SP) === undefined) {
      if (at < header.length && header[at] !== ",") return challenges;
      continue;
    }

    const start = at;
    const token68 = read(TOKEN68);
    if (token68 !== undefined) {
      read(OWS);
      if (at >= header.length || header[at] === ",") {
        challenge.token68 = token68;
        continue;
      }
      at = start;
    }
    for (;;) {
      const before = at;
      const name = read(TOKEN);
      read(OWS);
      if (name === undefined || header[at] !== "=") {
        at = before; // not a parameter: the next challenge's scheme starts here
        break;
      }
      at++;
      read(OWS);
      const value = header[at] === '"' ? quotedString() : read(TOKEN);
      if (value === undefined) return challenges;
      const key = name.toLowerCase();
      if (!(key in params)) params[key] = value; // a repeated parameter is invalid; the first one counts
      read(OWS);
      if (at >= header.length) return challenges;
      if (header[at] !== ",") return challenges; // garbage after a value
      skipSeparators();
    }
  }
}

/** The first `Bearer` challenge of a `WWW-Authenticate` value (scheme names are case-insensitive), read out. */
export function bearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  if (!header) return undefined;
  const challenge = parseChallenges(header).find(({ scheme }) => scheme.toLowerCase() === "bearer");
  if (!challenge) return undefined;
  const { params } = challenge;
  return {
    ...challenge,
    error: params.error,
    errorDescription: params.error_description,
    scope: params.scope,
    scopes: params.scope ? params.scope.split(" ").filter(Boolean) : [],
    resourceMetadata: params.resource_metadata,
    realm: params.realm,
  };
}
