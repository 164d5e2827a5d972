import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchors, markdownFiles, relativeLinks, slug } from "./support/markdown-links.js";

// A newcomer follows the links: every relative link in every Markdown file of the repository must lead somewhere.
const root = fileURLToPath(new URL("..", import.meta.url));

function brokenLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const broken: string[] = [];
  for (const link of relativeLinks(text)) {
    const where = `${relative(root, file)}:${link.line}`;
    const target =
      link.path === "" ? file : link.path.startsWith("/") ? join(root, link.path) : resolve(dirname(file), link.path);
    if (!existsSync(target)) {
      broken.push(`${where}: ${link.path} does not exist`);
      continue;
    }
    if (link.anchor === undefined || link.anchor === "" || statSync(target).isDirectory() || !target.endsWith(".md"))
      continue;
    const offered = anchors(target === file ? text : readFileSync(target, "utf8"));
    if (!offered.has(link.anchor))
      broken.push(`${where}: ${link.path || "this file"} has no heading for #${link.anchor}`);
  }
  return broken;
}

describe("Markdown links", () => {
  it("every relative link in every Markdown file resolves, anchors included", () => {
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it("slugs headings as GitHub does", () => {
    expect(slug("Shutdown, restarts and `KillMode`")).toBe("shutdown-restarts-and-killmode");
    expect(slug("What's new in 1.2?")).toBe("whats-new-in-12");
    expect(slug("tracker_b: the webhook route")).toBe("tracker_b-the-webhook-route");
    expect(slug("See [the guide](x.md) -- now")).toBe("see-the-guide----now");
    expect([...anchors("# A\n## A\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  it("finds relative links and skips external ones and code", () => {
    const text =
      '[a](docs/x.md#part) [b](https://example.com) `[c](no.md)`\n```\n[d](no.md)\n```\n[e]: ../y.md\n<a href="z.md">z</a> [f](#here)';
    expect(relativeLinks(text).map((l) => [l.path, l.anchor])).toEqual([
      ["docs/x.md", "part"],
      ["../y.md", undefined],
      ["", "here"],
      ["z.md", undefined],
    ]);
  });
});
