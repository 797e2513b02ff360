import { isObject } from "./arguments.js";

/**
 * `item` with only the fields named, each a dot path (`id`, `statistics.play_count`), nested as in the item; a path
 * the item lacks is left out. Only the item's own fields are read, into objects without a prototype, so no path
 * (`__proto__`, `constructor`) reaches anything but the item's data.
 */
export function project(item: unknown, fields: readonly string[]): Record<string, unknown> {
  const projected: Record<string, unknown> = Object.create(null);
  for (const field of fields) {
    const path = field.split(".");
    let value: unknown = item;
    for (const part of path) value = isObject(value) && Object.hasOwn(value, part) ? value[part] : undefined;
    if (value === undefined) continue;
    let at = projected;
    for (const part of path.slice(0, -1)) {
      if (!isObject(at[part])) at[part] = Object.create(null);
      at = at[part] as Record<string, unknown>;
    }
    at[path.at(-1) as string] = value;
  }
  return projected;
}
