import { spawn } from "node:child_process";
import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const index = fileURLToPath(new URL("./index.ts", import.meta.url));
const flags = ["--experimental-transform-types", "--disable-warning=ExperimentalWarning"];

/** One process that loads (or creates) the key in `dir` and prints a MAC made with it. */
function keyFingerprint(dir: string): Promise<string> {
  const script = `const { loadKeyRing } = await import(${JSON.stringify(index)});
const ring = await loadKeyRing(undefined, ${JSON.stringify(dir)});
process.stdout.write(ring.mac("fingerprint")("x"));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe("DATA_DIR/secret.key on concurrent first starts", () => {
  it("every racing process gets the same whole key, and no temporary file is left", async () => {
    for (let round = 0; round < 3; round++) {
      const dir = join(await mkdtemp(join(tmpdir(), "gh-key-race-")), "data");
      const prints = await Promise.all(Array.from({ length: 6 }, () => keyFingerprint(dir)));
      expect(new Set(prints).size).toBe(1);
      expect(prints[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await readdir(dir)).toEqual(["secret.key"]);
      expect((await stat(join(dir, "secret.key"))).mode & 0o777).toBe(0o600);
    }
  });
});
