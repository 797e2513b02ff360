// An integrator's calls with orval's fetch client: a profile and a videosite posts page.
import { shortvideoProfile, videositePosts } from "../../generated/orval/scraper/index.ts";

const init = { headers: { "x-api-key": "scrape_live_usage" } };

export async function calls(): Promise<void> {
  const profile = await shortvideoProfile({ username: "creator" }, init);
  if (profile.status === 200) console.log(profile.data.data.follower_count, profile.data.data.bio);
  const posts = await videositePosts({ username: "creator", contentType: "video" }, init);
  if (posts.status === 200) console.log(posts.data.data.posts[0]?.id, posts.data.data.next_cursor);
}
