import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { ENGINE_KINDS } from "../../src/engines/engine.js";
import { providerKeyEnv } from "../../src/engines/presets/provider-key-env.js";
import { engineConfig } from "./helpers/run-engine.js";

describe("createEngine", () => {
  test.each(ENGINE_KINDS.map((kind) => [kind]))("%s keeps its name, kind and image", (kind) => {
    const engine = createEngine(
      engineConfig(kind, {
        name: `my_${kind}`,
        command: kind === "command" ? ["./agent.sh"] : undefined,
        image: "ghcr.io/acme/agent:1",
      }),
    );
    expect(engine).toMatchObject({ name: `my_${kind}`, kind, image: "ghcr.io/acme/agent:1" });
  });

  test.each([
    ["claude_code", undefined, "ANTHROPIC_API_KEY"],
    ["codex", undefined, "CODEX_API_KEY"],
    ["gemini", undefined, "GEMINI_API_KEY"],
    ["opencode", "google/gemini-2.5-pro", "GOOGLE_GENERATIVE_AI_API_KEY"],
    ["aider", "gpt-4o", "OPENAI_API_KEY"],
    ["command", undefined, "ERRAND_API_KEY"],
  ] as const)("%s (model %s) passes an api_key in %s", (kind, model, env) => {
    const engine = createEngine(
      engineConfig(kind, {
        authMethod: "api_key",
        apiKeySecret: "k",
        model,
        command: kind === "command" ? ["./agent.sh"] : undefined,
      }),
    );
    expect(engine.apiKeyEnv).toBe(env);
  });

  test("a preset's command replaces the executable and may add leading arguments", () => {
    const engine = createEngine(engineConfig("codex", { command: ["npx", "-y", "@openai/codex"] }));
    const input = {
      ticket: {} as never,
      runId: "r",
      prompt: "p",
      workspace: "/w",
      files: { prompt: "/p", ticket: "/t", result: "/r" },
      apiKey: undefined,
    };
    expect(engine.invocation(input)).toMatchObject({
      command: "npx",
      args: ["-y", "@openai/codex", "exec", "--json", "--sandbox", "danger-full-access", "--skip-git-repo-check", "-"],
      stdin: "p",
    });
  });
});

describe("providerKeyEnv", () => {
  test.each([
    [undefined, "opencode", "ANTHROPIC_API_KEY"],
    ["anthropic/claude-sonnet-4-5", "opencode", "ANTHROPIC_API_KEY"],
    ["openai/gpt-5", "opencode", "OPENAI_API_KEY"],
    ["google/gemini-2.5-pro", "opencode", "GOOGLE_GENERATIVE_AI_API_KEY"],
    ["openrouter/anthropic/claude-sonnet-4", "opencode", "OPENROUTER_API_KEY"],
    ["amazon-bedrock/claude", "opencode", "AMAZON_BEDROCK_API_KEY"],
    ["sonnet", "aider", "ANTHROPIC_API_KEY"],
    ["o3-mini", "aider", "OPENAI_API_KEY"],
    ["gemini/gemini-2.5-pro", "aider", "GEMINI_API_KEY"],
    ["deepseek", "aider", "DEEPSEEK_API_KEY"],
    ["some-local-model", "aider", "ANTHROPIC_API_KEY"],
  ] as const)("%s with %s: %s", (model, tool, env) => {
    expect(providerKeyEnv(model, tool)).toBe(env);
  });
});
