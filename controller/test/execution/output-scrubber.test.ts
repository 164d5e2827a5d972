import { describe, expect, it } from "vitest";
import { createScrub } from "../../src/execution/output-scrubber.js";

const KEY = 'sk-ant-key/with+odd=chars"42';

describe("createScrub: what an engine says, cleaned before the controller keeps it", () => {
  it("masks a secret as is, JSON-escaped and percent-encoded", () => {
    const scrub = createScrub([KEY], undefined);
    expect(scrub(`raw ${KEY}`)).toBe("raw [redacted]");
    expect(scrub(`json ${JSON.stringify(KEY)}`)).toBe('json "[redacted]"');
    expect(scrub(`url https://h/?k=${encodeURIComponent(KEY)}`)).toBe("url https://h/?k=[redacted]");
  });

  it("makes paths in the workspace relative, the workspace itself '.', and leaves other paths alone", () => {
    const scrub = createScrub([], "/var/lib/errand/ws/run_1/");
    // A text without the workspace first: the pattern is made at the first text that names it.
    expect(scrub("no path here")).toBe("no path here");
    expect(scrub("edited /var/lib/errand/ws/run_1/src/x.ts and /var/lib/errand/ws/run_1/README.md")).toBe(
      "edited src/x.ts and README.md",
    );
    expect(scrub("cd /var/lib/errand/ws/run_1; ls /var/lib/errand/ws/run_1/")).toBe("cd .; ls ./");
    expect(scrub("other run /var/lib/errand/ws/run_10/x, nested /srv/var/lib/errand/ws/run_1/x")).toBe(
      "other run /var/lib/errand/ws/run_10/x, nested /srv/var/lib/errand/ws/run_1/x",
    );
  });

  it("a container workspace (/workspace) does not touch look-alike paths", () => {
    const scrub = createScrub(["a-long-secret"], "/workspace");
    expect(scrub("/workspace/a.ts /home/u/workspace/b.ts /workspace2/c.ts a-long-secret")).toBe(
      "a.ts /home/u/workspace/b.ts /workspace2/c.ts [redacted]",
    );
  });
});
