import { filePath, section } from "./kit.js";

/** `plugins`: where channel plugins are found. */
export const pluginsSchema = section({
  dir: filePath("An extra folder searched for installed channel plugins.").optional(),
}).meta({ description: "Channel plugins." });
