/**
 * A dotted key for a path into the document: `notifications.channels[0].backend`.
 * Keys that hold dots themselves (field mapping paths) are written as they are.
 */
export function configKey(path: ReadonlyArray<PropertyKey>): string {
  let key = "";
  for (const part of path) {
    if (typeof part === "number") key += `[${part}]`;
    else key += key === "" ? String(part) : `.${String(part)}`;
  }
  return key === "" ? "(top level)" : key;
}
