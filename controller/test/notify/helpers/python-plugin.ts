import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tempDir } from "./fixtures.js";

// The Python plugin needs Debian's python3-grpcio, python3-protobuf,
// protobuf-compiler and libprotobuf-dev (google/protobuf/struct.proto), as the
// SDK's interop tests do. `.ci/run` installs them and sets
// ERRAND_REQUIRE_INTEROP=1, so in CI a missing tool fails instead of skipping.
const PYTHON = "/usr/bin/python3";
const PLUGIN = fileURLToPath(new URL("../fixtures/python/plugin.py", import.meta.url));
const PROTO_DIR = fileURLToPath(new URL("../../../../proto", import.meta.url));

const succeeds = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;

/** True when the Python plugin can run here (or must: ERRAND_REQUIRE_INTEROP=1). */
export const pythonPluginRunnable =
  process.env.ERRAND_REQUIRE_INTEROP === "1"
  || (succeeds(PYTHON, ["-c", "import grpc, google.protobuf"])
    && succeeds("protoc", ["--version"])
    && existsSync("/usr/include/google/protobuf/struct.proto"));

/** Compiles the protocol's .proto files for Python and returns the plugin's command line. */
export function buildPythonPlugin(): string[] {
  const generated = tempDir("errand-py-gen-");
  execFileSync(
    "protoc",
    [
      "-I",
      ".",
      "-I",
      "/usr/include",
      `--python_out=${generated}`,
      "errand/v1/common.proto",
      "errand/v1/notifications.proto",
    ],
    { cwd: PROTO_DIR },
  );
  return [PYTHON, PLUGIN, generated];
}
