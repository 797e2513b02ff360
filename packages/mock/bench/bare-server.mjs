// The ceiling of the throughput bench: a bare node:http server that reads the request and answers the sandbox's
// profile body, fixed, with no rule at all. Prints its port.
import { createServer } from "node:http";

const body = JSON.stringify({
  data: { username: "creator", display_name: "Creator", follower_count: 1 },
  meta: { credits_charged: 1, credits_remaining: 99, request_id: "req_bare" },
});
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(body));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
