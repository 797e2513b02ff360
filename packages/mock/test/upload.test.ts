// A body is counted as its bytes arrive, never by the length it announces; one that stops arriving is ended after
// `stallMs` (on fake timers here: each byte starts the wait again); a request without a body touches no room.
import type { IncomingHttpHeaders } from "node:http";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { BodyRoom, type Holder } from "../src/body-room.js";
import { readUpload, type Upload } from "../src/upload.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const stallMs = 10_000;
const request = (headers: IncomingHttpHeaders) => Object.assign(new PassThrough(), { headers });
const announcing = (length: number) => request({ "content-length": String(length) });
// Stream events are delivered on the next turns of the event loop, which fake timers leave alone.
const delivered = () => new Promise((resolve) => setImmediate(resolve));
const settled = async (upload: Promise<Upload>) => {
  let result: Upload | undefined;
  void upload.then((value) => {
    result = value;
  });
  await delivered();
  return result;
};
const connection = (peer = "127.0.0.1 50000"): Holder => ({ peer, own: 0 });

it.each([
  ["no Content-Length", {}],
  ["Content-Length: 0", { "content-length": "0" }],
])("answers a request with %s at once, without room", async (_name, headers) => {
  const room = new BodyRoom({ own: 0, shared: 0, peer: 0 });
  const upload = await readUpload(request(headers), { limit: 100, room, holder: connection(), stallMs });
  expect(upload).toMatchObject({ kind: "body", body: undefined });
});

it("holds the bytes that arrived, not the length announced", async () => {
  const room = new BodyRoom({ own: 0, shared: 100, peer: 100 });
  const stalling = announcing(1024 * 1024);
  const pending = readUpload(stalling, { limit: 2 * 1024 * 1024, room, holder: connection(), stallMs });
  stalling.write("{");
  expect(await settled(pending)).toBeUndefined();
  // One byte held: 99 are left for anyone else, not one more.
  const other = announcing(99);
  const read = readUpload(other, { limit: 100, room, holder: connection("127.0.0.1 50001"), stallMs });
  other.end("x".repeat(99));
  const upload = await read;
  expect(upload).toMatchObject({ kind: "body", body: Buffer.from("x".repeat(99)) });
  expect(room.take(connection("127.0.0.1 50002"), { own: 0, shared: 0 }, 1)).toBe("room");
  if (upload.kind === "body") upload.release();
  expect(room.take(connection("127.0.0.1 50002"), { own: 0, shared: 0 }, 99)).toBeUndefined();
});

it("ends a body that receives no byte for stallMs, giving its room back; each byte starts the wait again", async () => {
  const room = new BodyRoom({ own: 0, shared: 100, peer: 100 });
  const stalling = announcing(1000);
  const pending = readUpload(stalling, { limit: 1000, room, holder: connection(), stallMs });
  stalling.write("x".repeat(60));
  await delivered();
  vi.advanceTimersByTime(stallMs - 1);
  stalling.write("x");
  await delivered();
  vi.advanceTimersByTime(stallMs - 1);
  expect(await settled(pending)).toBeUndefined();
  expect(room.take(connection("other"), { own: 0, shared: 0 }, 40)).toBe("room");
  vi.advanceTimersByTime(1);
  expect(await pending).toEqual({ kind: "stalled" });
  expect(stalling.isPaused()).toBe(true);
  expect(room.take(connection("other"), { own: 0, shared: 0 }, 100)).toBeUndefined();
});

it("ends a request that announces a body and sends none", async () => {
  const pending = readUpload(announcing(10), { limit: 100, room: new BodyRoom({ own: 0, shared: 100, peer: 100 }), holder: connection(), stallMs });
  vi.advanceTimersByTime(stallMs);
  expect(await pending).toEqual({ kind: "stalled" });
});

it.each([
  ["the room", { own: 0, shared: 100, peer: 100 }, "room"],
  ["the peer's share", { own: 0, shared: 1000, peer: 100 }, "peer"],
] as const)("reads a body %s cannot take to its end without keeping it, and answers why", async (_name, limits, refusal) => {
  const room = new BodyRoom(limits);
  const body = announcing(150);
  const pending = readUpload(body, { limit: 1000, room, holder: connection(), stallMs });
  body.write("x".repeat(60));
  await delivered();
  body.write("x".repeat(60));
  await delivered();
  // What it held is given back at once, while the rest of it is still read.
  expect(room.take(connection(), { own: 0, shared: 0 }, 100)).toBeUndefined();
  body.end("x".repeat(30));
  expect(await pending).toEqual({ kind: "no room", refusal });
});

it("counts a body over the limit without keeping it", async () => {
  const room = new BodyRoom({ own: 0, shared: 100, peer: 100 });
  const body = announcing(150);
  const pending = readUpload(body, { limit: 100, room, holder: connection(), stallMs });
  body.write("x".repeat(90));
  await delivered();
  body.end("x".repeat(60));
  expect(await pending).toEqual({ kind: "too large", abandon: false });
  expect(room.take(connection("other"), { own: 0, shared: 0 }, 100)).toBeUndefined();
});

it("gives the room back when the client hangs up mid-body", async () => {
  const room = new BodyRoom({ own: 0, shared: 100, peer: 100 });
  const body = announcing(150);
  const pending = readUpload(body, { limit: 1000, room, holder: connection(), stallMs });
  body.write("x".repeat(90));
  await delivered();
  body.destroy();
  expect(await pending).toEqual({ kind: "gone" });
  expect(room.take(connection("other"), { own: 0, shared: 0 }, 100)).toBeUndefined();
});
