/**
 * Validation of an execute-webhook body as the platform does it, with its
 * documented limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits,
 * https://discord.com/developers/docs/resources/webhook#execute-webhook) and its
 * error shape: `{"code":50035,"message":"Invalid Form Body","errors":{"embeds":{"0":{"title":{"_errors":[…]}}}}}`.
 * The platform counts characters (code points); so does this.
 */
export type FormErrors = Record<string, unknown>;

const length = (text: string) => [...text].length;
const FORBIDDEN_NAMES = ["clyde", "discord"];

export function validateMessage(body: Record<string, unknown>): FormErrors | undefined {
  const errors: FormErrors = {};
  const put = (path: (string | number)[], code: string, message: string) => {
    let node = errors;
    for (const key of path) node = (node[String(key)] ??= {}) as FormErrors;
    ((node._errors ??= []) as unknown[]).push({ code, message });
  };
  const maxLength = (value: unknown, path: (string | number)[], max: number, required = false) => {
    if (value === undefined || value === null) {
      if (required) put(path, "BASE_TYPE_REQUIRED", "This field is required");
      return 0;
    }
    if (typeof value !== "string") {
      put(path, "BASE_TYPE_STRING", "Must be a string.");
      return 0;
    }
    const n = length(value);
    if (required && n === 0) put(path, "BASE_TYPE_REQUIRED", "This field is required");
    if (n > max) put(path, "BASE_TYPE_MAX_LENGTH", `Must be ${max} or fewer in length.`);
    return n;
  };
  const url = (value: unknown, path: (string | number)[]) => {
    if (value === undefined) return;
    if (typeof value !== "string" || !/^https?:\/\/[^\s]+$/.test(value) || value.length > 2048)
      put(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.");
  };

  maxLength(body.content, ["content"], 2000);
  if (body.username !== undefined) {
    const n = maxLength(body.username, ["username"], 80);
    if (typeof body.username === "string" && n === 0)
      put(["username"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length.");
    const bad =
      typeof body.username === "string"
      && FORBIDDEN_NAMES.find((w) => body.username!.toString().toLowerCase().includes(w));
    if (bad) put(["username"], "USERNAME_INVALID_CONTAINS", `Username cannot contain "${bad}"`);
  }
  url(body.avatar_url, ["avatar_url"]);

  if (body.embeds !== undefined) {
    if (!Array.isArray(body.embeds)) put(["embeds"], "BASE_TYPE_LIST", "Must be a list.");
    else {
      if (body.embeds.length > 10) put(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.");
      let total = 0;
      body.embeds.forEach((value, i) => {
        const embed = value as Record<string, unknown>;
        total += maxLength(embed.title, ["embeds", i, "title"], 256);
        total += maxLength(embed.description, ["embeds", i, "description"], 4096);
        url(embed.url, ["embeds", i, "url"]);
        if (
          embed.color !== undefined
          && (!Number.isInteger(embed.color) || (embed.color as number) < 0 || (embed.color as number) > 0xffffff)
        ) {
          put(["embeds", i, "color"], "NUMBER_TYPE_MAX", "int value should be less than or equal to 16777215.");
        }
        if (embed.footer !== undefined)
          total += maxLength(
            (embed.footer as Record<string, unknown>).text,
            ["embeds", i, "footer", "text"],
            2048,
            true,
          );
        if (embed.author !== undefined)
          total += maxLength(
            (embed.author as Record<string, unknown>).name,
            ["embeds", i, "author", "name"],
            256,
            true,
          );
        if (embed.fields !== undefined) {
          const fields = embed.fields as Record<string, unknown>[];
          if (fields.length > 25)
            put(["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.");
          fields.forEach((f, j) => {
            total += maxLength(f.name, ["embeds", i, "fields", j, "name"], 256, true);
            total += maxLength(f.value, ["embeds", i, "fields", j, "value"], 1024, true);
          });
        }
      });
      if (total > 6000) put(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000");
    }
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
