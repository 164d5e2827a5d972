/**
 * The API key variable for a model name as opencode (`provider/model`) or
 * Aider (`provider/model` or a bare name such as `sonnet`, `gpt-4o`) take
 * it. A named provider maps to its usual variable (`<PROVIDER>_API_KEY` for
 * the ones not listed); a bare name is matched to its family; no model, or
 * one we cannot place, means Anthropic (both CLIs default to Claude models
 * when ANTHROPIC_API_KEY is set). docs/engines.md lists the mapping.
 */
export function providerKeyEnv(model: string | undefined, tool: "opencode" | "aider"): string {
  if (model === undefined || model.trim() === "") return "ANTHROPIC_API_KEY";
  const slash = model.indexOf("/");
  const provider = slash === -1 ? familyOf(model) : model.slice(0, slash).toLowerCase();
  if (provider === undefined) return "ANTHROPIC_API_KEY";
  // opencode reads Google keys through the AI SDK's variable; Aider (through litellm) reads GEMINI_API_KEY.
  if (provider === "google" || provider === "gemini")
    return tool === "opencode" ? "GOOGLE_GENERATIVE_AI_API_KEY" : "GEMINI_API_KEY";
  if (provider === "anthropic" || provider === "openai") return `${provider.toUpperCase()}_API_KEY`;
  return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

function familyOf(model: string): string | undefined {
  const name = model.toLowerCase();
  if (/claude|sonnet|opus|haiku/.test(name)) return "anthropic";
  if (/^(gpt|o\d|chatgpt|codex)/.test(name)) return "openai";
  if (name.includes("gemini")) return "gemini";
  if (name.includes("deepseek")) return "deepseek";
  return undefined;
}
