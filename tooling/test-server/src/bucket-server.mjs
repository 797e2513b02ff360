// The loopback server the client benchmarks talk to, in its own process so that it does not share the client's CPU.
// It answers profile requests with a profile and everything else with a 30-post shortvideo page.
// argv: <rpm or 0> [burstSeconds, default 60] [latency "min-max" ms, default none]. With an rpm it enforces the service's
// token bucket (a minute's allowance as burst unless told otherwise, continuous refill) and answers 429 with
// Retry-After when empty. With a latency, each answer leaves that long after its request was admitted (uniform in the
// range, from a fixed seed), so the `-Remaining` it carries is as old as that. It prints its port, then on SIGTERM
// `429s=<n> span=<ms>`: the 429s, and the time from the first admitted request to the last.
import { createServer } from "node:http";

const rpm = Number(process.argv[2] ?? 0);
const capacity = (rpm * Number(process.argv[3] ?? 60)) / 60;
const [minLatency, maxLatency] = (process.argv[4] ?? "0-0").split("-").map(Number);
// A small seeded generator (mulberry32): every run of a bench sees the same latencies.
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
let firstAdmitted;
let lastAdmitted;
const post = (i) => ({
  id: String(7312345678901234567n + BigInt(i)),
  contentType: "video",
  title: `Post ${i} #recipe`,
  views: 1000 + i, likes: 100 + i, comments: 10, shares: 5, bookmarks: 2,
  uploadedAt: 1763500000 - i * 3600,
  uploadedAtFormatted: new Date((1763500000 - i * 3600) * 1000).toISOString().replace(".000", ""),
  postPage: `https://shortvideo.example/@creator/video/${i}`,
  creator: "creator",
  videoUrl: `https://cdn.example/v/${i}.mp4?x-expires=1763798400&x-signature=abc`,
  thumbnail: `https://cdn.example/t/${i}.jpg`,
  platform: "shortvideo",
  hashtags: [],
  region: "US",
});
const body = JSON.stringify({
  data: { posts: Array.from({ length: 30 }, (_, i) => post(i)), profile_pictures: { creator: "https://cdn.example/a.jpg" }, next_cursor: "c2" },
  request_id: "req_bench", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 1000 },
});

const profile = JSON.stringify({
  data: { username: "creator", display_name: "Creator", follower_count: 1284000 },
  request_id: "req_bench", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 1000 },
});

let tokens = capacity;
let updated = performance.now();
let rejected = 0;
const perMs = rpm / 60_000;

createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const headers = { "content-type": "application/json", "x-scraper-credits-charged": "1", "x-scraper-credits-remaining": "1000" };
    if (rpm > 0) {
      const now = performance.now();
      tokens = Math.min(capacity, tokens + (now - updated) * perMs);
      updated = now;
      const limits = { "x-scraper-ratelimit-limit": String(rpm), "x-scraper-ratelimit-reset": "0" };
      if (tokens < 1) {
        rejected++;
        const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
        response.writeHead(429, { ...headers, ...limits, "x-scraper-credits-charged": "0", "x-scraper-ratelimit-remaining": "0", "retry-after": String(retryAfter) });
        response.end(JSON.stringify({ error: "SCRAPER_RATE_LIMITED", message: "rate limited", request_id: "req_429" }));
        return;
      }
      tokens -= 1;
      Object.assign(headers, limits, { "x-scraper-ratelimit-remaining": String(Math.floor(tokens)) });
    }
    firstAdmitted ??= performance.now();
    lastAdmitted = performance.now();
    const answer = () => {
      response.writeHead(200, headers);
      response.end(request.url.endsWith("/profile") ? profile : body);
    };
    if (maxLatency > 0) setTimeout(answer, minLatency + random() * (maxLatency - minLatency));
    else answer();
  });
}).listen(0, "127.0.0.1", function () {
  console.log(this.address().port);
});
process.on("SIGTERM", () => {
  console.log(`429s=${rejected} span=${lastAdmitted === undefined ? 0 : lastAdmitted - firstAdmitted}`);
  process.exit(0);
});
