import { readdir, readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";

// examples/ (issue 14): every application body there is accepted by POST /v2/apps
// as it is, and says in its entry point what its file name promises.
const EXAMPLES = new URL("../../../examples/", import.meta.url);
const readJson = async (path: string) =>
  JSON.parse(await readFile(new URL(path, EXAMPLES), "utf8")) as Record<string, any>;

let s: TestStack;
let token: string;
beforeAll(async () => {
  s = await startTestStack();
  token = await s.operatorToken("apps:write");
});
afterAll(() => s.close());

async function create(body: unknown) {
  const res = await s.app.inject({
    method: "POST",
    url: "/v2/apps",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().content as { id: string; password: string; entrypoints: Record<string, any>[] };
}

type Field = {
  type: string;
  key: string;
  main: boolean;
  mandatory: boolean;
  requiresConfirmation: boolean;
  step: number;
  useForValidation: boolean;
};
const mainId = (ep: Record<string, any>) => (ep.fields as Field[]).find((f) => f.type === "id" && f.main)!;

describe("examples/", () => {
  it("lists the walkthrough's application and one application per kind of entry point", async () => {
    expect((await readdir(new URL("apps/", EXAMPLES))).sort()).toEqual([
      "assisted.json",
      "one-step.json",
      "passwordless.json",
      "phone.json",
      "two-step.json",
    ]);
    expect((await readdir(new URL("users/", EXAMPLES))).sort()).toEqual(["login.json", "patch.json", "register.json"]);
  });

  it("application.json (the README walkthrough): one step, the email confirmed, a name", async () => {
    const app = await create(await readJson("application.json"));
    expect(app.password).toEqual(expect.any(String));
    const [ep] = app.entrypoints;
    expect(ep!.id).toBe(`${app.id}_web`);
    expect(mainId(ep!)).toMatchObject({ key: "email", mandatory: true, requiresConfirmation: true });
    expect(ep!.fields.map((f: Field) => f.key)).toEqual(["email", "name", "surname"]);
  });

  const kinds: [string, (ep: Record<string, any>) => void][] = [
    ["one-step", (ep) => expect((ep.fields as Field[]).every((f) => f.step === 1 || f.type === "id")).toBe(true)],
    [
      "two-step",
      (ep) => {
        expect((ep.fields as Field[]).filter((f) => f.step === 2).map((f) => f.key)).toEqual([
          "birthday",
          "postal_code",
        ]);
        expect((ep.fields as Field[]).find((f) => f.key === "name")).toMatchObject({ step: 1, useForValidation: true });
      },
    ],
    ["passwordless", (ep) => expect(ep).toMatchObject({ passwordless: true, assisted: false })],
    ["assisted", (ep) => expect(ep).toMatchObject({ assisted: true, passwordless: false })],
    [
      "phone",
      (ep) => expect(mainId(ep)).toMatchObject({ key: "phone_number", mandatory: true, requiresConfirmation: true }),
    ],
  ];
  it.each(kinds)("apps/%s.json is accepted as it is", async (kind, check) => {
    const app = await create(await readJson(`apps/${kind}.json`));
    expect(app.entrypoints).toHaveLength(1);
    check(app.entrypoints[0]!);
  });
});
