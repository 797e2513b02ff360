// The README is what partners read: its tables must say what the sandbox does.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { connectKeySuffixes, legacyKeys, legacyNotFoundId, magicInputs, platformIds, platformTokens, sandboxKeys } from "../src/index.js";
import {
  bodyBytesAtOnce,
  bodyStallMs,
  connectionBodyBytes,
  connectionBytes,
  connectionsCeilingBytes,
  maxConnections,
  maxPendingFaults,
  peerBodyBytes,
  peerConnections,
  stateCeilingBytes,
  stateLimits,
} from "../src/limits.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

it.each(magicInputs)("documents the magic input $input as it answers", ({ input, answer }) => {
  expect(readme).toContain(`| \`${input}\` | ${answer} |`);
});

it.each(Object.values(sandboxKeys))("documents the sandbox key %s", (key) => {
  expect(readme).toContain(`| \`${key}\` |`);
});

it.each([...Object.values(platformTokens).map((token) => `Bearer ${token}`), ...Object.values(legacyKeys)])("documents the platform magic credential %s", (credential) => {
  expect(readme).toContain(`| \`${credential}\` |`);
});

it.each([...Object.values(platformIds), legacyNotFoundId])("documents the magic id %s", (id) => {
  expect(readme).toMatch(new RegExp(`\\| \`${id}\``));
});

it.each(Object.values(connectKeySuffixes))("documents the connect keys ending in %s", (suffix) => {
  expect(readme).toContain(`| \`sk_test_${suffix}\`, \`sk_live_${suffix}\` |`);
});

const MB = (bytes: number) => `${bytes / 1024 / 1024} MB`;
// As the README writes numbers: thousands apart by a space (1 000).
const spaced = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, " ");
const rows: Record<keyof typeof stateLimits, string> = {
  accounts: "Scraper accounts",
  buckets: "Rate-limit buckets",
  clients: "OAuth clients",
  codes: "Authorization codes",
  tokens: "Tokens issued",
  idempotency: "Idempotency records",
  log: "The request log",
  answers: "Prism's answers",
};

it.each(Object.entries(rows) as Array<[keyof typeof stateLimits, string]>)("documents the memory budget of the %s store", (store, row) => {
  expect(readme).toMatch(new RegExp(`^\\| ${row}[^|]* \\| ${MB(stateLimits[store])} \\|`, "m"));
});

const KB = (bytes: number) => `${bytes / 1024} KB`;

it("documents the other memory limits and the ceiling they make", () => {
  expect(readme).toContain(`| Faults waiting | ${spaced(maxPendingFaults)} faults |`);
  expect(readme).toContain(`| Request bodies being read | ${KB(connectionBodyBytes)} a connection, and ${MB(bodyBytesAtOnce)} at once beyond that, ${MB(peerBodyBytes)} of it a peer |`);
  expect(readme).toContain(`A body that receives no byte for ${bodyStallMs / 1000} s answers \`408\``);
  expect(readme).toContain(`| Connections | ${spaced(maxConnections)} at once, ${peerConnections} a peer | ${KB(connectionBytes + connectionBodyBytes)} each: `);
  expect(readme).toContain(`a peer's ${peerConnections + 1}th is answered \`503\``);
  const ceiling = stateCeilingBytes + bodyBytesAtOnce + connectionsCeilingBytes;
  expect(readme).toContain(
    `the stores' budgets (${MB(stateCeilingBytes)}, counted as above), the bodies' ${MB(bodyBytesAtOnce)} and the connections' ${MB(connectionsCeilingBytes)} are the\nceiling: ${MB(ceiling)} of RSS`,
  );
});
