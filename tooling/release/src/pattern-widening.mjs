// Whether a changed `pattern` provably accepts every string the old one did. Regular-expression inclusion is hard in
// general, so this proves the common widenings only: the same expression, token for token, where each repetition allows
// at least the counts it did (`{1,100}` → `{1,200}`, `+` → `*`) and each single-character matcher at least the
// characters it did (`[a-z]` → `[a-z0-9]`, `\d` → `\w`, a literal → `.`). Then every way the old pattern matches a string
// is a way the new one matches it: the same steps, repeated as often, each consuming a character it still accepts.
// Only a negative lookaround reads the other way round (what it refuses grows), so a pattern with one is never proven
// wider; nor is anything that does not compile with ECMAScript's `u` flag (JSON Schema patterns are ECMA-262 regular
// expressions, and validators compile them with it). Where inclusion is not proven, the answer is no.

/** @typedef {[number, number][]} CodePoints sorted, disjoint, inclusive ranges of code points */
/** @typedef {{ text: string, characters?: CodePoints, min?: number, max?: number, lazy?: boolean }} Token */

const LAST = 0x10ffff;
const DIGITS = /** @type {CodePoints} */ ([[0x30, 0x39]]);
const WORD = /** @type {CodePoints} */ ([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
/** ECMAScript's WhiteSpace and LineTerminator, which `\s` matches. */
const SPACE = /** @type {CodePoints} */ ([
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f],
  [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
]);
/** `.` without the `s` flag: anything but a line terminator. */
const ANY = complement([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);
const CLASS_ESCAPES = /** @type {Record<string, CodePoints>} */ ({ d: DIGITS, D: complement(DIGITS), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) });
const CONTROL = /** @type {Record<string, number>} */ ({ t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d, 0: 0x00 });
const SHORT_REPETITIONS = /** @type {Record<string, [number, number]>} */ ({ "*": [0, Infinity], "+": [1, Infinity], "?": [0, 1] });

/**
 * Whether every string `before` matches, `after` matches too (both JSON Schema `pattern`s). False where that cannot be
 * proven.
 * @param {unknown} before
 * @param {unknown} after
 */
export function patternWidens(before, after) {
  if (typeof before !== "string" || typeof after !== "string") return false;
  const [was, is] = [tokens(before), tokens(after)];
  if (!was || !is || was.length !== is.length) return false;
  return was.every((old, i) => {
    const now = /** @type {Token} */ (is[i]);
    // Syntax other than an atom has no repetition, and is compared as written below.
    const repeats = old.min === undefined || (now.min !== undefined && now.min <= old.min && Number(now.max) >= Number(old.max) && now.lazy === old.lazy);
    const matches = old.characters && now.characters ? includes(now.characters, old.characters) : old.text === now.text;
    return repeats && matches;
  });
}

/**
 * The pattern's tokens: each atom (a single-character matcher, with the code points it accepts, or a group's end or a
 * backreference) with its repetition (once where none is written), and the other syntax as written. Undefined for a
 * pattern that does not compile with the `u` flag or has a negative lookaround.
 * @param {string} source
 * @returns {Token[] | undefined}
 */
function tokens(source) {
  try {
    new RegExp(source, "u");
  } catch {
    return undefined;
  }
  /** @type {Token[]} */
  const found = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const repetition = /^(?:([*+?])|\{(\d+)(,(\d*))?\})(\??)/.exec(rest);
    const atom = found.at(-1);
    if (repetition && atom?.min !== undefined) {
      const [text, short, min, range, max, lazy] = repetition;
      if (short) [atom.min, atom.max] = SHORT_REPETITIONS[short] ?? [];
      else [atom.min, atom.max] = [Number(min), range === undefined ? Number(min) : max === "" ? Infinity : Number(max)];
      atom.lazy = lazy === "?";
      i += text.length;
      continue;
    }
    const group = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(rest)?.[0];
    if (group) {
      if (group === "(?!" || group === "(?<!") return undefined;
      found.push({ text: group });
      i += group.length;
      continue;
    }
    const char = /** @type {string} */ (rest[0]);
    if ("|^$".includes(char)) {
      found.push({ text: char });
      i += 1;
    } else if (char === ")") {
      found.push(once(char));
      i += 1;
    } else if (char === ".") {
      found.push(once(char, ANY));
      i += 1;
    } else if (char === "[") {
      const text = source.slice(i, classEnd(source, i));
      found.push(once(text, classCharacters(text)));
      i += text.length;
    } else if (char === "\\") {
      const { text, characters } = escapeToken(rest);
      // `\b` and `\B` are assertions, which are never repeated.
      found.push(text === "\\b" || text === "\\B" ? { text } : once(text, characters));
      i += text.length;
    } else {
      const point = /** @type {number} */ (rest.codePointAt(0));
      const text = String.fromCodePoint(point);
      found.push(once(text, single(point)));
      i += text.length;
    }
  }
  return found;
}

/**
 * An atom matched once (until a repetition follows it), with the code points it accepts where it is one character of a
 * known set; a group's end, a backreference or a property escape has none and is compared as written.
 * @param {string} text
 * @param {CodePoints} [characters]
 * @returns {Token}
 */
const once = (text, characters) => ({ text, ...(characters && { characters }), min: 1, max: 1, lazy: false });

/**
 * An escape at the start of `rest` outside a class: its text and, where it matches one character of a known set, the code
 * points it accepts (`\p{…}` and backreferences have none and are compared as written).
 * @param {string} rest
 * @returns {{ text: string, characters?: CodePoints }}
 */
function escapeToken(rest) {
  const whole = /^\\(?:[pP]\{[^}]*\}|k<[^>]*>|[1-9]\d*)/.exec(rest)?.[0];
  if (whole) return { text: whole };
  const { text, codePoints } = escapedCharacter(rest);
  return { text, characters: codePoints };
}

/**
 * The escape at the start of `rest` (in a class or out of one, where `\b` is not a character) and the code points it
 * stands for, if it stands for known ones.
 * @param {string} rest
 * @returns {{ text: string, codePoints?: CodePoints }}
 */
function escapedCharacter(rest) {
  const hex = /^\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]+)\}|c([A-Za-z]))/.exec(rest);
  if (hex) {
    const [text, x, u, braced, control] = hex;
    const point = control ? /** @type {number} */ (control.codePointAt(0)) % 32 : Number.parseInt(/** @type {string} */ (x ?? u ?? braced), 16);
    return { text, codePoints: single(point) };
  }
  const letter = /** @type {string} */ (String.fromCodePoint(/** @type {number} */ (rest.codePointAt(1))));
  const text = `\\${letter}`;
  if (CLASS_ESCAPES[letter]) return { text, codePoints: CLASS_ESCAPES[letter] };
  if (CONTROL[letter] !== undefined) return { text, codePoints: single(/** @type {number} */ (CONTROL[letter])) };
  // With the `u` flag, any other escape that compiles is a syntax character standing for itself (`\.`, `\-`, `\/`), or
  // a property escape, which has no fixed set here.
  return /[A-Za-z]/.test(letter) ? { text } : { text, codePoints: single(/** @type {number} */ (letter.codePointAt(0))) };
}

/**
 * Where the class opening at `start` ends (after its `]`).
 * @param {string} source
 * @param {number} start
 */
function classEnd(source, start) {
  let i = start + 1;
  if (source[i] === "^") i += 1;
  while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
  return i + 1;
}

/**
 * The code points a class (`[a-z0-9._-]`, `[^\s]`) accepts, or undefined where one of its members has no known set.
 * @param {string} text
 * @returns {CodePoints | undefined}
 */
function classCharacters(text) {
  const negated = text[1] === "^";
  const body = text.slice(negated ? 2 : 1, -1);
  /** @type {CodePoints} */
  const accepted = [];
  let i = 0;
  /** The single character or class escape at `i`, as code points, and how long it is. */
  const member = () => {
    if (body[i] !== "\\") {
      const point = /** @type {number} */ (body.codePointAt(i));
      return { length: String.fromCodePoint(point).length, codePoints: single(point) };
    }
    const { text, codePoints } = body[i + 1] === "b" ? { text: "\\b", codePoints: single(0x08) } : escapedCharacter(body.slice(i));
    return { length: text.length, codePoints };
  };
  while (i < body.length) {
    const first = member();
    if (!first.codePoints) return undefined;
    i += first.length;
    const [from] = first.codePoints;
    if (body[i] === "-" && i + 1 < body.length && first.codePoints.length === 1 && from && from[0] === from[1]) {
      i += 1;
      const last = member();
      const [to] = last.codePoints ?? [];
      if (!to || to[0] !== to[1] || (last.codePoints?.length ?? 0) !== 1) return undefined;
      accepted.push([from[0], to[0]]);
      i += last.length;
    } else accepted.push(...first.codePoints);
  }
  return negated ? complement(accepted) : merge(accepted);
}

/** @param {number} point */
const single = (point) => /** @type {CodePoints} */ ([[point, point]]);

/**
 * Sorted, overlapping or touching ranges joined.
 * @param {CodePoints} ranges
 * @returns {CodePoints}
 */
function merge(ranges) {
  /** @type {CodePoints} */
  const merged = [];
  for (const [low, high] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

/**
 * Every code point not in `ranges`.
 * @param {CodePoints} ranges
 * @returns {CodePoints}
 */
function complement(ranges) {
  /** @type {CodePoints} */
  const outside = [];
  let next = 0;
  for (const [low, high] of merge(ranges)) {
    if (low > next) outside.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= LAST) outside.push([next, LAST]);
  return outside;
}

/**
 * Whether `outer` accepts every code point `inner` does (both merged).
 * @param {CodePoints} outer
 * @param {CodePoints} inner
 */
const includes = (outer, inner) => inner.every(([low, high]) => outer.some(([from, to]) => from <= low && high <= to));
