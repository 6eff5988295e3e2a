/* global process, Buffer, console */
// A webhook receiver in Node that verifies every delivery with the
// standardwebhooks library (npm install standardwebhooks).
//   WEBHOOK_SECRET=whsec_... PORT=3000 node receiver.mjs
// Answers 204 to a verified delivery (and prints the event as one JSON line),
// 400 to anything else. Repeats (at least once) are folded by webhook-id.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.WEBHOOK_SECRET);
const seen = new Set();

createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8"); // verify the raw body, never a re-serialized one
    let event;
    try {
      event = wh.verify(raw, req.headers); // also refuses a timestamp more than 5 minutes off
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      // Act here: provision on user.created, sync on user.updated, erase on user.deleted.
      console.log(JSON.stringify({ verified: true, id: event.id, type: event.type, data: event.data }));
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => console.log(JSON.stringify({ listening: true })));
