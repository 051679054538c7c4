// The same server in plain node:http, for bench/server.ts to compare against.
import { createServer } from "node:http";

const port = Number(process.argv[2]);
createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://localhost");
    const name = url.searchParams.get("name") ?? "you";
    const body = Buffer.from(`hello ${name}`, "utf8");
    res.writeHead(200, { "content-type": "text/plain", "content-length": body.length });
    res.end(body);
  });
}).listen(port, () => console.log("listening"));
