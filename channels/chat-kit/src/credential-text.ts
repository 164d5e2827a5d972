/**
 * What makes `raw` unusable as a credential that travels in an HTTP request
 * line or header (a bot token, a webhook URL), after dropping surrounding
 * whitespace; phrased to follow "the secret …", e.g. "contains a line break
 * at character 17" or "is wrapped in quotes". Undefined when every character
 * is printable ASCII. Never quotes the value, so the result can go into an
 * error message.
 *
 * Such a value passes any "is it set?" check, then fails every request with
 * an error that names neither the secret nor the fix: check it at start.
 */
export function credentialTextProblem(raw: string): string | undefined {
  const value = raw.trim();
  // Positions count characters of the stored value, so a user can find them in an editor.
  let position = [...raw.slice(0, raw.length - raw.trimStart().length)].length;
  for (const char of value) {
    position++;
    if (!/^[\x21-\x7e]$/.test(char)) return `contains ${describeChar(char)} at character ${position}`;
  }
  if (/^(["'`]).*\1$/s.test(value)) return "is wrapped in quotes";
  return undefined;
}

function describeChar(char: string): string {
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  if (/[\n\r\v\f\u0085\u2028\u2029]/.test(char)) return "a line break";
  if (char === " " || char === "\t") return "a space or tab";
  if (/\s/.test(char)) return `a space character (${code})`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this pattern
  if (/[\u0000-\u001f\u007f-\u009f]/.test(char)) return `a control character (${code})`;
  return `a character that is not printable ASCII (${code})`;
}
