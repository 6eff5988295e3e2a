import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openKv, type Kv } from "@gatehouse/kv";
import { redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";
import { smsBudget } from "./budget.ts";
import { allowedByPrefixes, callingCode } from "./calling-code.ts";

describe("calling codes", () => {
  it("reads the E.164 calling code (1, 2 or 3 digits) and checks an application's prefixes", () => {
    expect(callingCode("+14155550100")).toBe("+1");
    expect(callingCode("+79161234567")).toBe("+7");
    expect(callingCode("+34600111222")).toBe("+34");
    expect(callingCode("+525512345678")).toBe("+52");
    expect(callingCode("+351912345678")).toBe("+351");
    expect(callingCode("+88012345678")).toBe("+880");
    expect(callingCode("600111222")).toBeUndefined();
    expect(allowedByPrefixes("+34600111222", ["+34", "+52"])).toBe(true);
    expect(allowedByPrefixes("+351912345678", ["+34", "+52"])).toBe(false);
    expect(allowedByPrefixes("+18095550100", ["+1809"])).toBe(true);
    expect(allowedByPrefixes("+351912345678", [])).toBe(true);
  });
});

const stores: [string, () => Kv][] = [
  ["Redis", () => openKv({ redisUrl: redisTestUrl(), prefix: uniquePrefix() })],
  ["in-process", () => openKv({})],
];

describe.each(stores)("SMS budgets in the %s kv", (_name, open) => {
  let kv: Kv;
  afterEach(async () => kv?.close());

  it("refuses beyond each budget (global, calling code, application); a refusal spends nothing", async () => {
    kv = open();
    const budget = smsBudget(kv, { perHour: 5, perPrefixPerHour: 3 });
    const es = (n: number) => ({ to: `+3460011122${n}` });
    for (let i = 0; i < 3; i++) expect(await budget.take(es(i))).toBeUndefined();
    expect(await budget.spent(es(0))).toBe("prefix");
    expect(await budget.take(es(4))).toBe("prefix");
    // Other calling codes still have the global budget: 2 left of 5.
    expect(await budget.spent({ to: "+525512345678" })).toBeUndefined();
    expect(await budget.take({ to: "+525512345678" })).toBeUndefined();
    expect(await budget.take({ to: "+525512345679" })).toBeUndefined();
    expect(await budget.take({ to: "+525512345670" })).toBe("global");
    // An application's own budget.
    const app = smsBudget(kv, { perHour: 100, perPrefixPerHour: 100 }, () => Date.now() + 3_600_000);
    const scope = { to: "+14155550100", clientId: "100000000001_shop", appPerHour: 2 };
    expect(await app.take(scope)).toBeUndefined();
    expect(await app.take(scope)).toBeUndefined();
    expect(await app.take(scope)).toBe("application");
    expect(await app.take({ ...scope, clientId: "100000000002_other" })).toBeUndefined();
    expect(await app.take({ to: "+14155550100", clientId: "100000000003_none" })).toBeUndefined();
  });

  it("many parallel requests spend exactly the budget", async () => {
    kv = open();
    const budget = smsBudget(kv, { perHour: 1000, perPrefixPerHour: 25 });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => budget.take({ to: `+3460000${1000 + i}` })));
    expect(results.filter((r) => r === undefined)).toHaveLength(25);
    expect(results.filter((r) => r === "prefix")).toHaveLength(35);
  });
});

describe("SMS budgets shared through Redis", () => {
  it("two processes spend one budget", async () => {
    const prefix = uniquePrefix();
    const runs = await Promise.all([takeInChild(prefix, 40), takeInChild(prefix, 40)]);
    expect(runs[0]! + runs[1]!).toBe(30);
  });
});

const budgetModule = fileURLToPath(new URL("./budget.ts", import.meta.url));
const kvModule = fileURLToPath(new URL("../../../kv/src/index.ts", import.meta.url));

/** A child process that tries `n` messages to +34 (prefix budget 30) and prints how many were sent. */
function takeInChild(prefix: string, n: number): Promise<number> {
  const script = `const { smsBudget } = await import(${JSON.stringify(budgetModule)});
const { openKv } = await import(${JSON.stringify(kvModule)});
const kv = openKv({ redisUrl: ${JSON.stringify(redisTestUrl())}, prefix: ${JSON.stringify(prefix)} });
const budget = smsBudget(kv, { perHour: 1000, perPrefixPerHour: 30 });
const results = await Promise.all(Array.from({ length: ${n} }, (_, i) => budget.take({ to: "+3461" + String(1000000 + i) })));
process.stdout.write(String(results.filter((r) => r === undefined).length));
await kv.close();`;
  const flags = [
    "--experimental-transform-types",
    "--disable-warning=ExperimentalWarning",
    "--conditions=@gatehouse/source",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.once("exit", (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`child exited ${code}`))));
  });
}
