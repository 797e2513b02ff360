// One caller cannot stop the sandbox (issue #39): uploads that announce large bodies and stall hold only the bytes they
// sent, for 10 s at most (then 408); a request without a body, or with a small one, never waits for anyone's body; a
// body that finds no room is answered as a busy moment, after it is read; one peer holds at most 256 connections.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { bodyBytesAtOnce, bodyStallMs, connectionBodyBytes, peerConnections } from "../src/limits.js";
import { call, charged, start } from "./support.js";

/** A raw connection: what it received so far, and a promise of all it received once it closes. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<string>;
}

async function open(host: string, port: number): Promise<Raw> {
  const socket = connect(port, host);
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  // A reset after the answer (the sandbox closes a connection with unread bytes) is not this test's concern.
  socket.on("error", () => {});
  const closed = once(socket, "close").then(() => received);
  await once(socket, "connect");
  return { socket, received: () => received, closed };
}

/**
 * An upload to the platform surface that announces `length` bytes and sends `sent` of them, then nothing: its head is
 * read (Node answers `100 Continue` as it hands the request over) before it sends a byte of its body.
 */
async function stall(mock: RunningMock, length: number, sent: string): Promise<Raw> {
  const { hostname, port } = new URL(mock.url);
  const upload = await open(hostname, Number(port));
  upload.socket.write(
    `POST /api/oauth/v1/invoices HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer stalled\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`,
  );
  while (!upload.received().includes("100 Continue")) await once(upload.socket, "data");
  upload.socket.write(sent);
  return upload;
}

const continued = "HTTP/1.1 100 Continue\r\n\r\n";
const MiB = 1024 * 1024;
const invoice = (mock: RunningMock, bytes: number) =>
  fetch(`${mock.baseUrls.platform}/invoices`, {
    method: "POST",
    headers: { authorization: "Bearer other", "content-type": "application/json" },
    body: JSON.stringify({ note: "x".repeat(bytes) }),
  });
const deliveries = (mock: RunningMock) => fetch(`${mock.baseUrls.platform}/webhooks/w1/deliveries`, { headers: { authorization: "Bearer other" } });

it("answers every other caller while 33 uploads announce 1 MB each and stall after one byte", async () => {
  const mock = await start();
  const uploads: Raw[] = [];
  try {
    for (let index = 0; index < 33; index++) uploads.push(await stall(mock, MiB, "{"));
    expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" })).status).toBe(200);
    expect((await deliveries(mock)).status).toBe(200);
    expect((await invoice(mock, 10)).status).toBe(200);
    expect((await invoice(mock, 200_000)).status).toBe(200);
    // Answered while every stalled upload was still open, and unanswered.
    expect(uploads.map((upload) => [upload.received(), upload.socket.closed])).toEqual(uploads.map(() => [continued, false]));
  } finally {
    for (const upload of uploads) upload.socket.destroy();
    await mock.close();
  }
});

it("answers a body that finds no room as a busy moment, once read, and ends stalled bodies after 10 s, giving their room back", { timeout: bodyStallMs + 110_000 }, async () => {
  const mock = await start();
  const uploads: Raw[] = [];
  try {
    // Bodies of 1 MB, all but a byte sent, and one more for what is left: the shared room full to its last byte, beyond
    // each connection's own 16 KB.
    const sent = MiB - 1;
    const full = Math.floor(bodyBytesAtOnce / (sent - connectionBodyBytes));
    for (let index = 0; index < full; index++) uploads.push(await stall(mock, MiB, " ".repeat(sent)));
    uploads.push(await stall(mock, MiB, " ".repeat(bodyBytesAtOnce - full * (sent - connectionBodyBytes) + connectionBodyBytes)));
    // Until the sandbox has read them all, a body beyond a connection's own bytes may still find room.
    let refused: Response;
    do refused = await invoice(mock, 2 * connectionBodyBytes);
    while (refused.status === 200);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited", message: expect.stringContaining("the sandbox's limit") } });
    // The scraper answers its documented busy moment, refunded (`call` checks it against the description).
    const busy = await call(mock, "/scrape/shortvideo/profile", { username: "creator", padding: "x".repeat(connectionBodyBytes) });
    expect([busy.status, busy.body.error, charged(busy), busy.headers.get("retry-after")]).toEqual([503, "SCRAPER_SYSTEM_BUSY", 0, "1"]);
    const other = (url: string, headers: Record<string, string>) => fetch(url, { method: "POST", headers, body: "x".repeat(2 * connectionBodyBytes) });
    const legacy = await other(`${mock.baseUrls.platformLegacy}/posts/p1/metrics-history`, { "x-api-key": "company_key" });
    expect([legacy.status, await legacy.json()]).toEqual([429, { error: expect.stringContaining("the sandbox's limit") }]);
    const connect = await other(`${mock.baseUrls.connect}/anything`, { "x-api-key": "sk_test_key" });
    expect([connect.status, (await connect.json()).error.code]).toEqual([429, "rate_limited"]);
    // Requests without a body, or with one the size of almost every request's, do not need the shared room.
    expect((await deliveries(mock)).status).toBe(200);
    expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" })).status).toBe(200);
    expect((await invoice(mock, 1000)).status).toBe(200);
    for (const received of await Promise.all(uploads.map((upload) => upload.closed))) {
      expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 Request Timeout\r\n/);
      expect(received).toContain(`no progress for ${bodyStallMs / 1000} s (the sandbox's limit, not the service's)`);
    }
    expect((await invoice(mock, 1_000_000)).status).toBe(200);
  } finally {
    for (const upload of uploads) upload.socket.destroy();
    await mock.close();
  }
});

// Beyond loopback a peer is an address: this machine's own address on its network stands for another machine.
const lan = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;

it.skipIf(lan === undefined)("answers a peer's connection beyond its 256th with 503, and keeps serving the others", async () => {
  const mock = await start({ host: "0.0.0.0" });
  const port = Number(new URL(mock.url).port);
  const connections: Raw[] = [];
  try {
    for (let index = 0; index < peerConnections; index++) connections.push(await open(lan as string, port));
    const crowded = await open(lan as string, port);
    connections.push(crowded);
    const answer = await crowded.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(answer).toContain("Retry-After: 1\r\n");
    expect(answer).toContain(`This address holds ${peerConnections} connections to the sandbox, the most it keeps for one peer (the sandbox's limit, not the service's)`);
    const [first] = connections as [Raw];
    first.socket.write(`GET /nowhere HTTP/1.1\r\nHost: ${lan}:${port}\r\n\r\n`);
    while (!first.received().includes("Not Found")) await once(first.socket, "data");
    expect(first.received()).toMatch(/^HTTP\/1\.1 404 /);
  } finally {
    for (const connection of connections) connection.socket.destroy();
    await mock.close();
  }
});
