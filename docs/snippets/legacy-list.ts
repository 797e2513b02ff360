/** Before: a list of the deprecated key-based API (`/api/v1`), paged with `page` and `limit`. */
export async function* listAllLegacy<T>(baseUrl: string, apiKey: string, path: string) {
  for (let page = 1; ; page++) {
    const url = `${baseUrl}${path}?page=${page}&limit=100`;
    const response = await fetch(url, { headers: { "x-api-key": apiKey } });
    // Errors are `{ error: <message> }`; 402 means the company has no active subscription.
    if (!response.ok) {
      const { error } = (await response.json()) as { error: string };
      throw new Error(`${response.status}: ${error}`);
    }
    const body = (await response.json()) as { data: T[]; page: number; total: number };
    yield* body.data;
    if (body.data.length === 0 || page * 100 >= body.total) return;
  }
}
