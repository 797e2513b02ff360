// An integrator's calls with @hey-api/openapi-ts's SDK: a profile and a videosite posts page.
import { client } from "../../generated/hey-api/scraper/client.gen.ts";
import { shortvideoProfile, videositePosts } from "../../generated/hey-api/scraper/index.ts";

client.setConfig({ baseUrl: "https://scraper.example.test/api/v1", headers: { "x-api-key": "scrape_live_usage" } });

export async function calls(): Promise<void> {
  const profile = await shortvideoProfile({ body: { username: "creator" } });
  if (profile.data) console.log(profile.data.data.follower_count, profile.data.data.bio);
  const posts = await videositePosts({ body: { username: "creator", contentType: "video" } });
  if (posts.data) console.log(posts.data.data.posts[0]?.id, posts.data.data.next_cursor);
}
