import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "./processes.ts";

/**
 * A redis-server of the test's own, on a spare port and without persistence,
 * so that the test may kill it and start it again (empty, like a Redis that
 * restarted without a dump) without touching the machine's shared Redis.
 */
export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: connections drop at once, nothing is saved. */
  kill(): Promise<void>;
  /** Starts an empty server on the same port. */
  start(): Promise<void>;
}

const answersPing = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.setTimeout(500);
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (d) => {
      socket.destroy();
      resolve(d.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const self: PrivateRedis = {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async start() {
      child = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      for (let i = 0; i < 100; i++) {
        if (await answersPing(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      await exited;
    },
  };
  await self.start();
  return self;
}
