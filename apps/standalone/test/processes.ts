import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export const nodeFlags = ["--conditions=@gatehouse/source", "--experimental-transform-types", "--disable-warning=ExperimentalWarning"];

/** Runs one of apps/standalone/src's entry points as `npm start` / `npm run start:services` would. */
export function runEntry(entry: "main.ts" | "services.ts" | "cli.ts", args: string[], env: Record<string, string>): ChildProcess & { output: () => string } {
  const file = fileURLToPath(new URL(`../src/${entry}`, import.meta.url));
  const child = spawn(process.execPath, [...nodeFlags, file, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

export async function waitReady(url: string, child: { output: () => string; exitCode: number | null }, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${child.output()}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready after ${ms} ms:\n${child.output()}`);
}

export async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
