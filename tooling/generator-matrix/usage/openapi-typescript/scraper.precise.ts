// The reads are typed as the description says, and what it forbids is refused.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/scraper/index.ts";

const scraper = createClient<paths>({ baseUrl: "https://scraper.example.test/api/v1" });

export async function precise(): Promise<void> {
  const profile = await scraper.POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
  if (profile.data) {
    const followers: number = profile.data.data.follower_count;
    const bio: unknown = profile.data.data.bio;
    // @ts-expect-error follower_count is a number
    const text: string = profile.data.data.follower_count;
    console.log(followers, bio, text);
  }
  // @ts-expect-error username is required
  await scraper.POST("/scrape/shortvideo/profile", { body: {} });
  const posts = await scraper.POST("/scrape/videosite/posts", { body: { username: "creator" } });
  const first = posts.data?.data.posts[0];
  if (first) {
    const id: string = first.id;
    // @ts-expect-error a post id is a string
    const numeric: number = first.id;
    console.log(id, numeric);
  }
}
