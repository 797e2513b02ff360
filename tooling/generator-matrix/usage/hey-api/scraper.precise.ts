// The reads are typed as the description says, and what it forbids is refused.
import { shortvideoProfile, videositePosts } from "../../generated/hey-api/scraper/index.ts";

export async function precise(): Promise<void> {
  const profile = await shortvideoProfile({ body: { username: "creator" } });
  if (profile.data) {
    const followers: number = profile.data.data.follower_count;
    const bio: unknown = profile.data.data.bio;
    // @ts-expect-error follower_count is a number
    const text: string = profile.data.data.follower_count;
    console.log(followers, bio, text);
  }
  // @ts-expect-error username is required
  await shortvideoProfile({ body: {} });
  const posts = await videositePosts({ body: { username: "creator" } });
  const first = posts.data?.data.posts[0];
  if (first) {
    const id: string = first.id;
    // @ts-expect-error a post id is a string
    const numeric: number = first.id;
    console.log(id, numeric);
  }
}
