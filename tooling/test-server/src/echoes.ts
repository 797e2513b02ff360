// The forms in which a careless or hostile server sends back a credential it received, for the echo cases of every
// package's tests, and what must then appear nowhere. A credential's public prefix (`scrape_live_`; "" for a secret
// that is random throughout) is no secret: what counts is its random part.

/** One way of echoing a credential: the pieces the server sends (one, or two for the halves), each in its own field. */
export interface Echo {
  name: string;
  pieces(secret: string, publicPrefix: string): string[];
}

const bytes = (text: string) => [...Buffer.from(text, "utf8")];
const hex = (byte: number) => byte.toString(16).padStart(2, "0");
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** The encodings that act on each character alone: every 12 characters of a random part are checked in each. */
const perCharacter = {
  percent: (text: string) => bytes(text).map((byte) => `%${hex(byte).toUpperCase()}`).join(""),
  escaped: (text: string) => [...text].map((char) => `\\u${hex(char.charCodeAt(0)).padStart(4, "0")}`).join(""),
  decimalEntities: (text: string) => [...text].map((char) => `&#${char.charCodeAt(0)};`).join(""),
  hexEntities: (text: string) => [...text].map((char) => `&#x${hex(char.charCodeAt(0))};`).join(""),
  hex: (text: string) => bytes(text).map(hex).join(""),
};

export const echoes: readonly Echo[] = [
  { name: "as it is", pieces: (secret) => [secret] },
  { name: "percent-encoded, every byte", pieces: (secret) => [perCharacter.percent(secret)] },
  {
    name: "percent-encoded, every byte in mixed-case hex",
    pieces: (secret) => [bytes(secret).map((byte, index) => `%${index % 2 ? hex(byte).toUpperCase() : hex(byte)}`).join("")],
  },
  { name: "percent-encoded, only its underscores (scrape%5Flive%5F…)", pieces: (secret) => [secret.replaceAll("_", "%5F")] },
  { name: "JSON-escaped, its first character (\\u0073crape_live_…)", pieces: (secret) => [`${perCharacter.escaped(secret.slice(0, 1))}${secret.slice(1)}`] },
  { name: "JSON-escaped, every character in upper-case hex (\\u005F)", pieces: (secret) => [perCharacter.escaped(secret).toUpperCase().replaceAll("\\U", "\\u")] },
  { name: "base64", pieces: (secret) => [base64(secret)] },
  { name: "base64url", pieces: (secret) => [base64url(secret)] },
  { name: "hex", pieces: (secret) => [perCharacter.hex(secret)] },
  { name: "hex in upper case", pieces: (secret) => [perCharacter.hex(secret).toUpperCase()] },
  { name: "HTML entities, decimal (&#115;)", pieces: (secret) => [perCharacter.decimalEntities(secret)] },
  { name: "HTML entities, hex (&#x73;)", pieces: (secret) => [perCharacter.hexEntities(secret)] },
  { name: "HTML entities, named (&lowbar;)", pieces: (secret) => [secret.replaceAll("_", "&lowbar;")] },
  { name: "its last 12 characters", pieces: (secret) => [secret.slice(-12)] },
  { name: "its last 16 characters", pieces: (secret) => [secret.slice(-16)] },
  {
    name: "its two halves, in two fields",
    pieces: (secret, publicPrefix) => {
      const middle = publicPrefix.length + Math.floor((secret.length - publicPrefix.length) / 2);
      return [secret.slice(0, middle), secret.slice(middle)];
    },
  },
  { name: "base64 of client_1:<it> (HTTP Basic)", pieces: (secret) => [base64(`client_1:${secret}`)] },
  { name: "base64url of a JSON cursor holding it", pieces: (secret) => [base64url(JSON.stringify({ page: 2, key: secret }))] },
];

/**
 * What must appear nowhere once `secret` was echoed, in lower case: every echo's pieces, and every 12 characters of its
 * random part, as they are and in each per-character encoding (a redaction that stopped halfway leaves one of these).
 * The random part must be 24 characters or more, so that each half carries 12 of them.
 */
export function echoedForms(secret: string, publicPrefix: string): string[] {
  const random = secret.slice(publicPrefix.length);
  if (!secret.startsWith(publicPrefix) || random.length < 24) throw new Error("an echoed secret needs a random part of 24 characters or more after its prefix");
  const windows = Array.from({ length: random.length - 11 }, (_, offset) => random.slice(offset, offset + 12));
  const pieces = echoes.flatMap((echo) => echo.pieces(secret, publicPrefix));
  const forms = [...pieces, ...windows, ...windows.flatMap((window) => Object.values(perCharacter).map((encode) => encode(window)))];
  return [...new Set(forms.map((form) => form.toLowerCase()))];
}

/**
 * The forms of `secret` (`echoedForms`) that `texts` hold: empty when none leaked. A text that is JSON (a file, an
 * answer, `JSON.stringify` of an error) doubles every backslash, once for each time it was written: it is read with
 * them halved as well, so that a `\u0073` escape kept as text is found however deep it sits.
 */
export function leakedForms(texts: readonly string[], secret: string, publicPrefix: string): string[] {
  const lower: string[] = [];
  for (const text of texts) {
    let read = text.toLowerCase();
    lower.push(read);
    for (let depth = 0; depth < 4 && read.includes("\\\\"); depth++) {
      read = read.replaceAll("\\\\", "\\");
      lower.push(read);
    }
  }
  return echoedForms(secret, publicPrefix).filter((form) => lower.some((text) => text.includes(form)));
}
