import { spawn } from "node:child_process";

/** The flags `npm start` runs the TypeScript sources with. */
export const NODE_FLAGS = ["--conditions=@gatehouse/source", "--experimental-transform-types", "--disable-warning=ExperimentalWarning"];

export interface NodeChild {
  name: string;
  pid: number;
  /** The last output of the child (stdout and stderr), for error reports. */
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

const KEEP_OUTPUT = 64 * 1024;

/** Starts `node <flags> script` as its own process, like `npm start` does. */
export function startNodeChild(name: string, script: string, env: Record<string, string>, extraFlags: string[] = []): NodeChild {
  const proc = spawn(process.execPath, [...NODE_FLAGS, ...extraFlags, script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString("utf8")).slice(-KEEP_OUTPUT);
  };
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  let done = false;
  const exit = new Promise<void>((resolve) => proc.once("exit", () => ((done = true), resolve())));
  return {
    name,
    pid: proc.pid!,
    output: () => out,
    exited: () => done,
    async stop() {
      if (done) return;
      // SIGTERM first: the server closes its stores (and writes a --cpu-prof profile) before exiting.
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 25_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
