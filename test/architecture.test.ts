import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { channelDirs, manifest, typeScriptDirs } from "./support/workspaces.mjs";

// Repository-wide rules that no single package's tests can see.
const root = fileURLToPath(new URL("..", import.meta.url));
// The packages written in TypeScript, from the root's workspaces (test/support/workspaces.mjs): a new one is checked without a change here.
const packages = typeScriptDirs();

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${join("src", "gen")}`));
}

// `import … from "./x.js"`, `export … from "./x.js"` and side-effect `import "./x.js"`.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^;]*?from\s+)?["'](\.{1,2}\/[^"']+)["']/g;

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      targets.push(resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")));
    }
    graph.set(file, targets);
  }
  return graph;
}

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "visiting") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "visiting");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("architecture", () => {
  it.each(packages)("%s has no cyclic imports", (pkg) => {
    const cycle = findCycle(importGraph(sources(join(root, pkg, "src"))));
    expect(cycle?.map((f) => relative(root, f)).join(" → ")).toBeUndefined();
  });

  it("the cycle finder finds a cycle", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
    ]);
    expect(findCycle(graph)).toEqual(["a", "b", "c", "a"]);
  });

  // One of each thing: the wire constants and the way a plugin process is
  // stopped live in the SDK (@errand/channel-sdk/protocol); a copy drifts.
  it("the CLI takes the magic cookie, the call target and process stopping from the SDK", () => {
    const copies: string[] = [];
    for (const file of sources(join(root, "cli", "src"))) {
      const text = readFileSync(file, "utf8");
      const where = relative(root, file);
      if (/["']ERRAND_PLUGIN_MAGIC_COOKIE["']|["']errand-notification-channel["']/.test(text))
        copies.push(`${where}: the magic cookie`);
      if (/CALL_TARGET_MS\s*=/.test(text)) copies.push(`${where}: the call target`);
      if (/process\.kill\(|\.kill\(["']SIG/.test(text))
        copies.push(`${where}: signals a plugin itself (use stopProcess/signalProcess)`);
    }
    expect(copies).toEqual([]);
  });

  it("the package list is read from the workspaces: it has the controller and every built-in channel", () => {
    expect(packages).toEqual(
      expect.arrayContaining(["sdk", "controller", "cli", "channels/chat-kit", "channels/chat-a", "channels/chat-b"]),
    );
  });

  // One spelling per thing: a channel's folder is its name in kebab case, its wire and config name the same in snake case.
  it.each(channelDirs())("%s spells its channel's name one way everywhere", (pkg) => {
    const folder = pkg.split("/")[1]!;
    const manifest = JSON.parse(readFileSync(join(root, pkg, "package.json"), "utf8")) as {
      name: string;
      bin: Record<string, string>;
      errand: { channel: string };
    };
    expect(manifest.errand.channel).toBe(folder.replaceAll("-", "_"));
    expect(manifest.name).toBe(`@errand/${pkg.startsWith("channels/") ? "channel" : "example"}-${folder}`);
    expect(Object.keys(manifest.bin)).toEqual([`errand-channel-${folder}`]);
  });

  it("no file or folder is named with a channel's snake-case wire name (chat_a): paths use chat-a", () => {
    const wireNames = channelDirs()
      .map((dir) => manifest(dir).errand!.channel!)
      .filter((name) => name.includes("_"));
    expect(wireNames).toContain("chat_a");
    const snake = packages
      .flatMap((pkg) =>
        readdirSync(join(root, pkg), { recursive: true, withFileTypes: true }).map((e) =>
          relative(root, join(e.parentPath, e.name)),
        ),
      )
      .filter(
        (path) =>
          !path.includes("node_modules") && !path.includes("dist") && wireNames.some((name) => path.includes(name)),
      );
    expect(snake).toEqual([]);
  });

  // Doc pages follow the same rule: a page about chat_a is docs/channels/chat-a.md, as its package is channels/chat-a.
  it("no file or folder under docs/ has an underscore in its name: doc paths are kebab case", () => {
    const snake = readdirSync(join(root, "docs"), { recursive: true, withFileTypes: true })
      .map((e) => relative(root, join(e.parentPath, e.name)))
      .filter((path) => path.includes("_"));
    expect(snake).toEqual([]);
  });

  // The controller's data flows one way; each entry is a folder that must not import from another.
  // (More directions join this list as the controller's folders are straightened out.)
  const FORBIDDEN: readonly (readonly [from: string, to: string])[] = [
    ["store/postgres", "store/sqlite"],
    ["store/sqlite", "store/postgres"],
    ["store", "loop"],
    ["store", "notify"],
    ["execution", "notify"],
    ["engines", "notify"],
    ["secrets", "execution"],
    ["kube", "execution"],
    ["kube", "secrets"],
    ["store", "intake"],
    ["store", "webhook"],
    ["loop", "sources"],
    ["loop", "webhook"],
    ["loop", "intake"],
    ["loop", "notify"],
    ["loop", "config"],
    ["loop", "guardrails"],
    ["intake", "sources"],
    ["engines", "webhook"],
    ["intake", "vendors"],
    ["store", "vendors"],
    ["loop", "vendors"],
    ["engines", "vendors"],
    ["execution", "vendors"],
    ["notify", "vendors"],
    // The console is an edge, like ops: it reads the others' parts, and nothing below it reads it.
    ["store", "console"],
    ["loop", "console"],
    ["execution", "console"],
    ["notify", "console"],
    ["intake", "console"],
    ["sources", "console"],
    ["console", "wiring"],
  ];
  const controllerSrc = join(root, "controller", "src");
  const within = (file: string, folder: string): boolean =>
    `${relative(controllerSrc, file)}/`.startsWith(`${folder}/`);

  it.each(FORBIDDEN)("controller: %s imports nothing from %s", (from, to) => {
    const against: string[] = [];
    for (const [file, targets] of importGraph(sources(controllerSrc))) {
      if (!within(file, from)) continue;
      for (const target of targets)
        if (within(target, to)) against.push(`${relative(root, file)} → ${relative(root, target)}`);
    }
    expect(against).toEqual([]);
  });

  // A vendor's folder (vendors/<id>/) holds all of that vendor and nothing of another's: what they share lives in
  // webhook/ (HTTP, auth, decoding) and sources/polling/ (the poll loop), and vendors/*.ts list them.
  it("controller: no vendor's folder imports from another vendor's folder", () => {
    const vendorOf = (file: string): string | undefined =>
      /^vendors\/([^/]+)\//.exec(relative(controllerSrc, file))?.[1];
    const against: string[] = [];
    for (const [file, targets] of importGraph(sources(controllerSrc))) {
      const vendor = vendorOf(file);
      if (vendor === undefined) continue;
      for (const target of targets) {
        const other = vendorOf(target);
        if (other !== undefined && other !== vendor)
          against.push(`${relative(root, file)} → ${relative(root, target)}`);
      }
    }
    expect(against).toEqual([]);
  });

  // Each domain owns its part of errand.yaml (a `*-schema.ts`, with its transform to the runtime shape) and config/
  // only assembles them: config/ reaches these domains through their config fragments (engines-config.ts resolves
  // the engine entries), never their other code. vendors/registry.ts is plain data (ids, routes, vendor names).
  const FRAGMENT = /(-schema|\/engines-config|\/vendors\/registry)\.ts$/;
  it.each(["console", "engines", "execution", "guardrails", "notify", "ops", "sources", "store", "vendors", "webhook"])(
    "controller: config imports only the config fragments of %s",
    (domain) => {
      const against: string[] = [];
      for (const [file, targets] of importGraph(sources(controllerSrc))) {
        if (!within(file, "config")) continue;
        for (const target of targets)
          if (within(target, domain) && !FRAGMENT.test(target))
            against.push(`${relative(root, file)} → ${relative(root, target)}`);
      }
      expect(against).toEqual([]);
    },
  );

  it.each(packages)("%s declares engines node >=20.19 and is ESM", (pkg) => {
    const manifest = JSON.parse(readFileSync(join(root, pkg, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.type).toBe("module");
    expect(manifest.engines).toEqual({ node: ">=20.19" });
  });
});
