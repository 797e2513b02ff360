// The README is what partners read: its tables must say what the sandbox does.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { connectKeySuffixes, legacyKeys, legacyNotFoundId, magicInputs, platformIds, platformTokens, sandboxKeys } from "../src/index.js";

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
