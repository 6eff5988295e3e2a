import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

// npm run start:services: each service its own process, Connect over HTTP
// between them (the Kubernetes topology on one machine). The gateway listens
// on PORT; registry and auth on REGISTRY_PORT and AUTH_PORT.
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
const order = ["registry", "auth", "gateway"] as const;
const children: ChildProcess[] = [];
let stopping = false;

function start(name: string): ChildProcess {
  const child = spawn(process.execPath, [...process.execArgv, cli, "serve", name], { stdio: "inherit", env: process.env });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping the others`);
    stop(1);
  });
  return child;
}

function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  let left = children.filter((c) => c.exitCode === null).length;
  if (left === 0) process.exit(code);
  for (const c of children) c.once("exit", () => --left === 0 && process.exit(code));
  setTimeout(() => process.exit(code), 25_000).unref();
}

process.once("SIGTERM", () => stop(0));
process.once("SIGINT", () => stop(0));

// No start order is needed: each service migrates its own schema and only
// calls its peers when a request arrives.
for (const name of order) children.push(start(name));
