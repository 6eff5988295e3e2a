import { createServer } from "node:net";
import type { NodeChild } from "./child.ts";

/** Polls `url` until it answers 2xx; fails early with the child's output if the child died. */
export async function waitReady(url: string, child: NodeChild, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exited()) throw new Error(`${child.name} exited before it was ready:\n${child.output()}`);
    const res = await fetch(url).catch(() => undefined);
    if (res?.ok) return;
    await res?.body?.cancel();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} not ready at ${url} after ${timeoutMs} ms:\n${child.output()}`);
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
