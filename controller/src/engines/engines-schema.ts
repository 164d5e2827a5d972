import * as z from "zod";
import { say } from "../config/problem-codec.js";
import {
  choice,
  errorFor,
  optionalSection,
  section,
  show,
  text,
  textList,
  whole,
  withDefaults,
} from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";
import { looksLikeToken } from "../secrets/looks-like-token.js";
import { ENGINE_KINDS, type EngineKind } from "./engine.js";
import { unsupportedLimitProblem, unsupportedLimits } from "./presets/agent-limits.js";

const ENGINE_NAME = /^[a-z][a-z0-9_-]{0,62}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variable names that hold credentials by convention; those come by name through auth.api_key_secret. */
const CREDENTIAL_NAME =
  /(^|_)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PAT|CREDENTIALS?|AUTH)$|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY/i;
const PRESETS = ENGINE_KINDS.filter((k) => k !== "command");

const auth = section({
  method: choice(["api_key", "none"]).optional().meta({
    description:
      "`api_key`: the engine gets the key from `api_key_secret`; `none`: no key (the CLI uses its own login). Default: `api_key` when `api_key_secret` is set, else `none`.",
  }),
  api_key_secret: secretName("Name of the secret holding the engine's API key.").optional(),
}).superRefine((a, ctx) => {
  if (a.method === "api_key" && a.api_key_secret === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["api_key_secret"],
      input: undefined,
      message: say(
        "is required when method is api_key",
        "write the name of the secret holding the key, e.g. anthropic-api-key",
      ),
    });
  }
  if (a.method === "none" && a.api_key_secret !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["api_key_secret"],
      input: a.api_key_secret,
      message: say(
        "is set but method is none, so it would never be used",
        "set method: api_key, or remove api_key_secret",
      ),
    });
  }
});

const prompt = section({
  template: text().optional().meta({ description: "Prompt template; placeholders in docs/operators-guide.md." }),
  template_file: text({ fix: "write a file path (relative paths start at the config file's folder)" })
    .optional()
    .meta({ description: "File holding the prompt template; relative to the config file's folder." }),
}).superRefine((p, ctx) => {
  if (p.template !== undefined && p.template_file !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["template_file"],
      input: p.template_file,
      message: say("is set beside template", "keep one of template and template_file"),
    });
  }
});

const env = z
  .record(
    z.string().regex(ENV_NAME, {
      error: say("is not an environment variable name", "use letters, digits and _, not starting with a digit"),
    }),
    z.string({ error: errorFor((input) => `must be a string, got ${show(input)}`, "quote the value") }),
    { error: errorFor(() => "must be a mapping of names to values", "write env: with NAME: value lines below it") },
  )
  .superRefine(
    (vars, ctx) => {
      for (const [name, value] of Object.entries(vars)) {
        const fix =
          "keep credentials in a secret and name it in auth.api_key_secret (the engine gets it as its API key variable); env is for settings only; for the code host token (GH_TOKEN, GITHUB_TOKEN) list the variable under repository_token_env";
        if (name.toUpperCase().startsWith("ERRAND_")) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            input: name,
            message: say("is reserved: the controller sets ERRAND_* variables", "choose another name"),
          });
        } else if (CREDENTIAL_NAME.test(name)) {
          ctx.addIssue({ code: "custom", path: [name], input: name, message: say("looks like a credential", fix) });
        } else if (looksLikeToken(value) !== undefined && !/^https?:\/\//.test(value)) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            input: "(hidden)",
            message: say(`has a value that looks like ${looksLikeToken(value)}`, fix),
          });
        }
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .meta({
    description:
      "Extra environment variables of the engine process (settings only: names that look like credentials are refused).",
  });

/** Claude Code tool names or rules (`Bash`, `Bash(git diff:*)`, `mcp__github`), one per item. */
const toolList = (what: string) =>
  textList("write a list of tool names, e.g. [Read, Edit, Bash]")
    .min(1, { error: say("is an empty list", "name at least one tool, or remove the key") })
    .refine((tools) => tools.every((t) => !t.startsWith("-")), {
      error: say(
        "has an item starting with '-', which the CLI would read as a flag",
        "write tool names such as Bash or Edit",
      ),
    })
    .optional()
    .meta({ description: what });

const engine = section({
  kind: choice(ENGINE_KINDS).optional().meta({
    description:
      "`command` (any executable) or a preset. Default: the entry's name when it is a preset's name (`engines.claude_code:`), else required.",
  }),
  command: z
    .array(text(), {
      error: errorFor(
        (input) => `must be a list of strings, got ${show(input)}`,
        "write the executable and its arguments, e.g. [./agent.sh]",
      ),
    })
    .min(1, { error: say("is an empty list", "write the executable and its arguments, e.g. [./agent.sh]") })
    .optional()
    .meta({
      description: "`command` engines: the executable and its arguments (required). Presets: replaces the CLI's path.",
    }),
  args: textList().default([]).meta({ description: "Extra arguments appended to the engine's own." }),
  auth: withDefaults(auth).meta({ description: "How the engine authenticates (docs/engines.md)." }),
  prompt: optionalSection(prompt).meta({
    description: "Overrides the built-in prompt template (give `template` or `template_file`).",
  }),
  prompt_via: choice(["stdin", "file"]).optional().meta({
    description: "`command` engines: `stdin` (default) or `file` (the path is always in $ERRAND_PROMPT_FILE).",
  }),
  env: env.nullish().transform((v) => v ?? {}),
  image: text().optional().meta({ description: "Container image, for cluster backends." }),
  model: text().optional().meta({ description: "Presets: model name passed to the CLI." }),
  max_turns: whole(1, 10_000).optional().meta({
    description:
      "claude_code only (`--max-turns`): the agent stops after this many turns and its run fails with the reason. Other kinds refuse it.",
  }),
  allowed_tools: toolList(
    "claude_code only (`--allowedTools`): the only tools the agent may use; the run's permission mode becomes `dontAsk`, so any other tool is denied. Other kinds refuse it.",
  ),
  disallowed_tools: toolList(
    "claude_code only (`--disallowedTools`): tools the agent may not use. Other kinds refuse it.",
  ),
  repository_token_env: z
    .array(text({ pattern: ENV_NAME, fix: "write variable names such as GH_TOKEN" }), {
      error: errorFor((input) => `must be a list of variable names, got ${show(input)}`, "write e.g. [GH_TOKEN]"),
    })
    .refine((names) => !names.some((n) => n.toUpperCase().startsWith("ERRAND_")), {
      error: say("names an ERRAND_* variable, which the controller sets", "choose another name, e.g. GH_TOKEN"),
    })
    .default([])
    .meta({
      description:
        "Variables that give the agent the code host token of `repositories.codehost_a` (e.g. [GH_TOKEN, GITHUB_TOKEN], for agents that push or open pull requests themselves). Default: none; the controller pushes and opens the pull request.",
    }),
});

/** The kind an entry gets when it names none: its own name when that is a preset's. */
export function defaultEngineKind(name: string): EngineKind | undefined {
  return (PRESETS as readonly string[]).includes(name) ? (name as EngineKind) : undefined;
}

/** The `engines` section: `default` and one entry per engine. */
export const enginesSchema = z
  .object(
    {
      default: text({ pattern: ENGINE_NAME, fix: "write the name of an entry under engines" })
        .optional()
        .meta({ description: "The engine runs use. Default: the only entry, when there is one." }),
    },
    {
      error: errorFor(() => "must be a mapping", "write engines: with default: and one entry per engine below it"),
    },
  )
  .catchall(engine)
  .superRefine(
    (engines, ctx) => {
      const names = Object.keys(engines).filter((k) => k !== "default");
      for (const name of names) {
        const entry = engines[name] as z.output<typeof engine> | undefined;
        if (!ENGINE_NAME.test(name)) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            input: name,
            message: say(
              "is not a valid engine name",
              "use lower-case letters, digits, '_' and '-', starting with a letter",
            ),
          });
        }
        if (typeof entry !== "object" || entry === null) continue;
        const kind = entry.kind ?? defaultEngineKind(name);
        if (kind === undefined) {
          ctx.addIssue({
            code: "custom",
            path: [name, "kind"],
            input: undefined,
            message: say(
              `is required (${name} is not a preset's name)`,
              `write kind: command for any executable, or one of ${PRESETS.join(", ")}`,
            ),
          });
        }
        if (kind === "command" && entry.command === undefined) {
          ctx.addIssue({
            code: "custom",
            path: [name, "command"],
            input: undefined,
            message: say(
              "is required for a command engine",
              "write the executable and its arguments, e.g. command: [./agent.sh]",
            ),
          });
        }
        if (kind !== undefined && kind !== "command" && entry.prompt_via !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [name, "prompt_via"],
            input: entry.prompt_via,
            message: say(
              `applies to command engines only (this one is ${kind})`,
              "remove prompt_via; presets give the prompt as their CLI expects",
            ),
          });
        }
        if (kind !== undefined) {
          for (const key of unsupportedLimits(kind, entry)) {
            const { message, fix } = unsupportedLimitProblem(kind, key);
            ctx.addIssue({ code: "custom", path: [name, key], input: entry[key], message: say(message, fix) });
          }
        }
      }
      const chosen = engines.default;
      if (typeof chosen === "string" && !names.includes(chosen)) {
        ctx.addIssue({
          code: "custom",
          path: ["default"],
          input: chosen,
          message: say(
            `names ${show(chosen)}, which is not an entry under engines`,
            names.length === 0 ? `add engines.${chosen}: with its settings` : `use one of ${names.join(", ")}`,
          ),
        });
      }
      if (chosen === undefined && names.length > 1) {
        ctx.addIssue({
          code: "custom",
          path: ["default"],
          input: undefined,
          message: say("is required when there is more than one engine", `name one of ${names.join(", ")}`),
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .meta({ description: "Engines: `default` and one entry per engine, keyed by a name you choose (docs/engines.md)." });

/** One `engines.<name>` entry as validated. */
export type EngineEntry = z.output<typeof engine>;
