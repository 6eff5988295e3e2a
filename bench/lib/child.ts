import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The flags `npm start` runs the TypeScript sources with. */
export const NODE_FLAGS = [
  "--conditions=@gatehouse/source",
  "--experimental-transform-types",
  "--disable-warning=ExperimentalWarning",
];

export interface NodeChild {
  name: string;
  pid: number;
  /** The last output of the child (stdout and stderr), for error reports. */
  output(): string;
  exited(): boolean;
  /** CPU seconds (user + system, all threads, live child processes included) used so far; undefined where /proc is missing. */
  cpuSeconds(): number | undefined;
  /** Resident memory (VmRSS) in MB now; undefined once exited or where /proc is missing. */
  rssMb(): number | undefined;
  stop(): Promise<void>;
}

const KEEP_OUTPUT = 64 * 1024;

/** Starts `node <flags> script` as its own process (the TypeScript sources). */
export function startNodeChild(
  name: string,
  script: string,
  env: Record<string, string>,
  extraFlags: string[] = [],
): NodeChild {
  return startChild(name, process.execPath, [...NODE_FLAGS, ...extraFlags, script], env);
}

/** Starts a command whose process becomes the server (e.g. `sh scripts/start.sh main`, which execs node). */
export function startChild(name: string, command: string, args: string[], env: Record<string, string>): NodeChild {
  const proc = spawn(command, args, {
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
    cpuSeconds: () => procCpuSeconds(proc.pid!),
    rssMb: () => (done ? undefined : procRssMb(proc.pid!)),
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

// Linux clock ticks per second (USER_HZ), 100 on every common kernel configuration.
const TICKS_PER_SECOND = 100;

/** CPU seconds (utime + stime, all threads) of `pid` and its live descendants (a server that forks counts whole). */
function procCpuSeconds(pid: number): number | undefined {
  const own = procOwnCpuTicks(pid);
  if (own === undefined) return undefined;
  let ticks = own;
  for (const child of procChildren(pid)) ticks += (procCpuSeconds(child) ?? 0) * TICKS_PER_SECOND;
  return ticks / TICKS_PER_SECOND;
}

function procOwnCpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Child processes of `pid`, from each of its threads' `children` list. */
function procChildren(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** VmRSS of a process in MB (rounded), from /proc. */
export function procRssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}
