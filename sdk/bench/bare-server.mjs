#!/usr/bin/env node
// The baseline of rpc-bench: a bare @grpc/grpc-js server with the same
// service definition on a Unix socket, answering NotifyStart at once. No
// SDK: what grpc-js alone costs. Prints its socket path on stdout.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NotificationChannelService } from "@errand/channel-sdk/protocol";
import { Server, ServerCredentials } from "@grpc/grpc-js";

const dir = mkdtempSync(join(tmpdir(), "bare-grpc-"));
const path = join(dir, "s.sock");
// The bench ends this process with SIGTERM: remove the socket's folder, or every run leaves one in the temp dir.
process.on("SIGTERM", () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
const server = new Server();
const answer = (_call, callback) => callback(null, { deliveryId: "ok" });
server.addService(NotificationChannelService, {
  handshake: answer,
  notify: answer,
  notifyStart: answer,
  notifyComplete: answer,
});
server.bindAsync(`unix:${path}`, ServerCredentials.createInsecure(), (error) => {
  if (error) throw error;
  process.stdout.write(`${path}\n`);
});
