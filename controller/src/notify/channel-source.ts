import type { BuiltinChannel } from "./builtin-channels.js";

/** Where a configured channel comes from and how it is started. */
export type ChannelSource =
  /** Shipped with the controller, loaded in-process. */
  | { kind: "builtin"; packageName: string; builtin: BuiltinChannel }
  /** An installed package found by its `errand.channel`; its bin runs as a plugin process. */
  | {
      kind: "package";
      packageName: string;
      packageVersion: string | undefined;
      dir: string;
      command: string;
      args: string[];
    }
  /** An explicit `command` from the config: any executable, in any language. */
  | { kind: "command"; command: string; args: string[] };

/** The source in words, for `errand channels list` and logs: `built-in (@errand/channel-chat-a)`, a path, a command line. */
export function describeSource(source: ChannelSource): string {
  switch (source.kind) {
    case "builtin":
      return `built-in (${source.packageName})`;
    case "package":
      return source.dir;
    case "command":
      return [source.command, ...source.args].join(" ");
  }
}
