import { platformFetch, type Session } from "./oauth-requests.js";

interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Every item of an OAuth list: follow `nextCursor` (opaque, passed back as is) while `hasMore`. */
export async function* listAll<T>(session: Session, path: string) {
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: "100" }); // default 25, maximum 100
    if (cursor) query.set("cursor", cursor);
    const page = (await platformFetch(session, `${path}?${query}`)) as Page<T>;
    yield* page.data;
    cursor = page.hasMore ? page.nextCursor : null;
  } while (cursor);
}
