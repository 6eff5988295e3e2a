import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { confirmedUser, createOAuthApp, LOOPBACK, REDIRECT } from "./oauth-flow.ts";
import { listeningStack } from "./rp-helpers.ts";
import type { TestStack } from "./stack-helpers.ts";
import { PASSWORD, type FlowApp, type LoggedUser } from "./user-flows.ts";

// The Python and Go relying parties (relying-parties/*.py, relying-parties/go-oidc)
// run as their own processes against a listening stack, with the libraries
// Debian packages (.ci/run installs them). Each prints a JSON report of named
// steps: {"ok": true, ...facts} or {"ok": false, "error": "..."}; a failing
// step does not stop the others, so a library's known limit is asserted by
// name while the rest of its flow still runs.

const run = promisify(execFile);
const DIR = join(import.meta.dirname, "relying-parties");
/** Debian's interpreter: the packages below are installed for it, not for a pyenv or venv python3 first on PATH. */
const PYTHON = "/usr/bin/python3";

export const PYTHON_PACKAGES = [
  "python3-authlib",
  "python3-jose",
  "python3-jwt",
  "python3-jwcrypto",
  "python3-requests-oauthlib",
];
export const GO_PACKAGES = [
  "golang-go",
  "golang-github-coreos-go-oidc-dev",
  "golang-golang-x-oauth2-dev",
  "golang-gopkg-square-go-jose.v2-dev",
];

/** The installed version of each package; a clear failure naming the apt-get command when any is missing. */
export async function debianPackages(packages: string[]): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const pkg of packages) {
    const { stdout } = await run("dpkg-query", ["-W", "-f", "${Status}\t${Version}", pkg]).catch(() => ({
      stdout: "",
    }));
    const [status, version] = stdout.split("\t");
    if (status === "install ok installed" && version) versions[pkg] = version;
  }
  const missing = packages.filter((p) => !versions[p]);
  if (missing.length > 0) {
    throw new Error(
      `These relying-party tests run Debian's packages of the client libraries, and ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not installed. ` +
        `Install them (as .ci/run does): sudo apt-get install -y ${packages.join(" ")}`,
    );
  }
  return versions;
}

export interface Step {
  ok: boolean;
  error?: string;
  [fact: string]: unknown;
}
export interface RpReport {
  library: string;
  version: string;
  steps: Record<string, Step>;
}

export const NATIVE_REDIRECT = LOOPBACK.replace("127.0.0.1", "127.0.0.1:53682");

export interface RpTarget {
  s: TestStack;
  app: FlowApp;
  user: LoggedUser;
  /** The programs' environment. */
  env: Record<string, string>;
}

/**
 * The operator client's secret: `%41`, `+`, a space, `:`, `&` and `=` read
 * differently raw and form-decoded, and Gatehouse must accept both (contract
 * section 9): Authlib and requests send it raw, x/oauth2 form-encoded.
 */
export const TRICKY_SECRET = "s3cret%41+plus space:colon&=";

/** A listening stack with SIGNING_ALG, an application (REDIRECT), a confirmed user and an operator whose secret is TRICKY_SECRET. */
export async function rpTarget(alg: string): Promise<RpTarget> {
  const { s, base } = await listeningStack({ SIGNING_ALG: alg, BOOTSTRAP_OPERATOR_CLIENT_SECRET: TRICKY_SECRET });
  const app = await createOAuthApp(s);
  const user = await confirmedUser(s, app);
  const env = {
    GATEHOUSE_URL: base,
    CLIENT_ID: app.id,
    CLIENT_SECRET: app.password,
    PUBLIC_CLIENT_ID: app.entrypoint,
    USER_EMAIL: user.email,
    USER_PASSWORD: PASSWORD,
    REDIRECT_URI: REDIRECT,
    // A native app's loopback redirect on the port it listens on (registered without one: RFC 8252 section 7.3).
    NATIVE_REDIRECT_URI: NATIVE_REDIRECT,
    SIGNING_ALG: alg,
    OPERATOR_ID: s.config.bootstrapOperator!.clientId,
    OPERATOR_SECRET: TRICKY_SECRET,
    // The stack listens on plain HTTP; these let Authlib and oauthlib talk to it (never in production).
    AUTHLIB_INSECURE_TRANSPORT: "1",
    OAUTHLIB_INSECURE_TRANSPORT: "1",
  };
  return { s, app, user, env };
}

async function report(file: string, args: string[], env: Record<string, string>): Promise<RpReport> {
  const { stdout } = await run(file, args, {
    cwd: DIR,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    timeout: 90_000,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${file} ${args.join(" ")} failed: ${err.message}\n${err.stderr ?? ""}`);
  });
  return JSON.parse(stdout) as RpReport;
}

/** Runs relying-parties/<script> with Debian's python3. */
export const runPython = (script: string, env: Record<string, string>) =>
  report(PYTHON, [script], { ...env, PYTHONDONTWRITEBYTECODE: "1" });

/** Runs the Go program built by buildGoProgram. */
export const runGo = (binary: string, mode: "confidential" | "public", env: Record<string, string>) =>
  report(binary, [mode], env);

/**
 * Builds relying-parties/go-oidc once (per test file) in GOPATH mode against
 * Debian's /usr/share/gocode (no module proxy needed); the compile cache lives
 * in the system temp directory so later runs only link.
 */
export async function buildGoProgram(): Promise<string> {
  const out = join(await mkdtemp(join(tmpdir(), "gh-rp-go-")), "rp");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: tmpdir(),
    GO111MODULE: "off",
    GOPATH: "/usr/share/gocode",
    GOCACHE: join(tmpdir(), "gatehouse-go-cache"),
    GOFLAGS: "",
  };
  await run("go", ["build", "-o", out, "."], { cwd: join(DIR, "go-oidc"), env, timeout: 120_000 }).catch(
    (err: { stderr?: string; message: string }) => {
      throw new Error(`go build failed: ${err.message}\n${err.stderr ?? ""}`);
    },
  );
  return out;
}
