import { describe, expect, it } from "vitest";
import { resumeCopyingDescription } from "./copy-pause";

describe("resumeCopyingDescription", () => {
  it("says what Resume copying will do, with the number of slaves it re-enables", () => {
    expect(resumeCopyingDescription(2)).toBe(
      "Copying resumes for the organisation: 2 slave account(s) paused by Pause All / PANIC STOP will take new trades again. Slaves you disabled stay disabled.",
    );
  });
});
