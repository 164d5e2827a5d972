import { readFile } from "node:fs/promises";
import { ConfigError } from "./config-error.js";
import { parseYamlSource, type YamlSource } from "./yaml-source.js";

/**
 * Reads and parses a YAML configuration file (`path` absolute). Throws
 * {@link ConfigError} when it cannot be read or is not valid YAML.
 */
export async function readConfigFile(path: string): Promise<YamlSource> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(
      [{ key: "(file)", message: `cannot be read (${code})`, fix: "check the path given to --config" }],
      path,
      { cause: error },
    );
  }
  const source = parseYamlSource(text);
  if (source.syntaxProblems.length > 0) throw new ConfigError(source.syntaxProblems, path);
  return source;
}
