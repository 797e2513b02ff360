import type { components } from "../generated/scraper.types.js";
import { hash, pick } from "../hash.js";

// A catalog's posts are the description's example posts, varied deterministically: new ids (unique per platform),
// counts and upload times, and the requested creator where the example names its own.

export type Post = components["schemas"]["UnifiedPost"];
type Counter = "views" | "likes" | "comments" | "shares" | "bookmarks";
const counters: readonly Counter[] = ["views", "likes", "comments", "shares", "bookmarks"];

/** What a catalog is made from: the example listing of the platform's posts operation. */
export interface Examples {
  posts: readonly Post[];
  /** The example's `profile_pictures`: its one key is the handle the example posts belong to. */
  pictures: Readonly<Record<string, string>>;
}

export interface Creator {
  seed: string;
  platform: string;
  /** The handle as requested, without `@`. */
  username: string;
}

export interface Catalog {
  /**
   * The `index`-th post of the catalog: 0 the newest when the sandbox started, going back in time, unless `uploadedAt`
   * (Unix seconds) places it. Each index is a distinct post.
   */
  post(index: number, uploadedAt?: number): Post;
  /** Seconds between the creator's posts: the pace at which new ones appear as sandbox time passes. */
  readonly spacingSeconds: number;
  /** `profile_pictures`: the requested handle mapped to the creator's picture. */
  pictures(): Record<string, string>;
}

const digits = "0123456789";
const hex = "0123456789abcdef";
const alphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// The last characters of an id number the post within its catalog, which makes ids unique per catalog; the others
// come from the creator, which makes them differ between catalogs.
const serialLength = 5;

function alphabetOf(id: string): string {
  if (/^\d+$/.test(id)) return digits;
  if (/^[0-9a-f]+$/.test(id)) return hex;
  return alphanumeric;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function catalogOf(examples: Examples, creator: Creator): Catalog {
  const exampleHandle = Object.keys(examples.pictures)[0] ?? "";
  const lower = creator.username.toLowerCase();
  const identity = [creator.seed, creator.platform, lower].join("\u0000");
  // The example's handle where it stands alone (`/@creator/`, `creator_123`), in the requested creator's spelling.
  const handle = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(exampleHandle)}(?![A-Za-z0-9])`, "gi");
  const withCreator = (text: string) =>
    exampleHandle === "" ? text : text.replace(handle, (found) => (found === found.toLowerCase() ? lower : creator.username));

  // Per example id: the characters its ids use, and the creator's part of them (all but the serial).
  const styles = new Map<string, { alphabet: string; prefix: string }>();
  function styleOf(exampleId: string): { alphabet: string; prefix: string } {
    let style = styles.get(exampleId);
    if (!style) {
      const alphabet = alphabetOf(exampleId);
      let prefix = "";
      for (let position = 0; position < Math.max(1, exampleId.length - serialLength); position++) {
        const first = position === 0 && alphabet === digits ? 1 : 0; // numeric ids never start with 0
        prefix += alphabet[first + (hash(identity, position) % (alphabet.length - first))];
      }
      style = { alphabet, prefix };
      styles.set(exampleId, style);
    }
    return style;
  }

  const serialOffset = hash(identity, "serial");
  /** An id in the style of the example's (same length, same characters), the `index`-th of the catalog. */
  function postId(exampleId: string, index: number): string {
    const { alphabet, prefix } = styleOf(exampleId);
    const serials = alphabet.length ** serialLength;
    // A prime that divides no alphabet size scatters the serials without repeating one within `serials` posts.
    let rest = (index * 7919 + (serialOffset % serials)) % serials;
    let serial = "";
    for (let place = 0; place < serialLength; place++, rest = Math.floor(rest / alphabet.length)) {
      serial = alphabet[rest % alphabet.length] + serial;
    }
    return prefix + serial;
  }

  /** URLs and a bare handle follow the post and the creator; titles and display names stay as in the example. */
  function rewrite(value: unknown, exampleId: string, id: string): unknown {
    if (typeof value !== "string") return value;
    if (value.toLowerCase() === exampleHandle.toLowerCase()) return withCreator(value);
    return value.includes("/") ? withCreator(value.replaceAll(exampleId, id)) : value;
  }

  const spacing = pick(6 * 3600, 72 * 3600, identity, "spacing");
  const newest = examples.posts[0]?.uploadedAt;

  return {
    spacingSeconds: spacing,
    post(index, placed) {
      const example = examples.posts[index % examples.posts.length] as Post;
      const id = postId(example.id, index);
      const post: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(example)) post[key] = rewrite(value, example.id, id);
      post.id = id;
      // One hash per post, read 8 bits per counter and the rest for the time of day.
      const noise = hash(identity, index);
      counters.forEach((counter, slot) => {
        const count = example[counter];
        if (count !== undefined) post[counter] = Math.floor((count * (10 + (Math.floor(noise / 2 ** (8 * slot)) % 256))) / 100);
      });
      if (newest !== undefined && example.uploadedAt !== undefined) {
        const uploadedAt = placed ?? newest - index * spacing - (Math.floor(noise / 2 ** 40) % 3600);
        post.uploadedAt = uploadedAt;
        if (example.uploadedAtFormatted !== undefined) post.uploadedAtFormatted = new Date(uploadedAt * 1000).toISOString().replace(".000Z", "Z");
      }
      return post as Post;
    },
    pictures() {
      const picture = Object.values(examples.pictures)[0];
      return picture === undefined ? {} : { [creator.username]: withCreator(picture) };
    },
  };
}
