// `Prefer` (RFC 7240) as Prism reads it: `code=404`, `example=<name>`, `dynamic=true|false`. Other preferences are
// ignored, as the RFC asks; a malformed value of these three is an error, so that a typo does not pass silently.

export interface Preferences {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
}

export type PreferResult = { ok: true; preferences: Preferences } | { ok: false; message: string };

const none: PreferResult = Object.freeze({ ok: true, preferences: Object.freeze({}) });

export function parsePrefer(header: string | string[] | undefined): PreferResult {
  if (header === undefined) return none;
  const preferences: Preferences = {};
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  for (const part of text.split(/[,;]/)) {
    const [rawName = "", ...rest] = part.split("=");
    const name = rawName.trim().toLowerCase();
    const value = rest.join("=").trim().replace(/^"(.*)"$/, "$1");
    if (name === "code") {
      if (!/^[1-5]\d\d$/.test(value)) return { ok: false, message: `Prefer: code must be an HTTP status such as 404, not "${value}".` };
      preferences.code = Number(value);
    } else if (name === "example") {
      if (value === "") return { ok: false, message: "Prefer: example needs the name of a documented example." };
      preferences.exampleKey = value;
    } else if (name === "dynamic") {
      if (value !== "true" && value !== "false") return { ok: false, message: `Prefer: dynamic must be true or false, not "${value}".` };
      preferences.dynamic = value === "true";
    }
  }
  return { ok: true, preferences };
}
