// The limit of this stack: node:http reads the whole body and answers 200.
import { createServer } from "node:http";

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    Buffer.concat(chunks);
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`ready ${server.address().port}\n`));
// Exit normally on SIGTERM so `--cpu-prof` can write its profile.
process.on("SIGTERM", () => process.exit(0));
