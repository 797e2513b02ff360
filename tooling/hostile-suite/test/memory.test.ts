import { describe, expect, it } from "vitest";
import { allowedGrowth, heavyBodies, peakGrowth, timeoutMs } from "../src/memory.js";
import { subjects } from "../src/subjects.js";

// Each case in a Node process of its own, so that its peak RSS is its own: the growth stays within the documented
// bound, 2 × maxResponseBytes + 100 MB, and the call ends with the client's typed too-large error (or its timeout, for
// the compressed body that decodes to nothing, which Node's fetch cannot count on the wire).
const maxResponseBytes = 8 * 1024 * 1024;

describe.concurrent.each(subjects.map((subject, index) => [subject.name, subject, index] as const))("%s", (_name, subject, index) => {
  it.each(heavyBodies)("%s", async (_body, handler, ends) => {
    const { growthBytes, error } = await peakGrowth(index, handler, maxResponseBytes, timeoutMs[ends]);
    expect(error?.name).toBe(subject.errors[ends].name);
    expect(growthBytes).toBeLessThan(allowedGrowth(maxResponseBytes));
  });
});
