import { describe, expect, it } from "vitest";
import { errorFacts } from "@gatehouse/errors";
import type { GrantModule } from "../grants/index.ts";
import type { TokenEndpointContext } from "./context.ts";
import { checkParameters } from "./steps.ts";

// checkParameters with a grant that declares every kind of parameter (the
// shape authorization_code will have), independent of any store.
const codeLikeGrant: GrantModule = {
  grantType: "example",
  parameters: { required: ["code", "redirect_uri"], optional: ["code_verifier"], forbidden: ["scope"] },
  handler: () => Promise.reject(new Error("not called")),
};

function run(parameters: Record<string, string>) {
  const ctx = {
    deps: {},
    request: { client: undefined, grantType: "example", parameters },
    grant: codeLikeGrant,
  } as unknown as TokenEndpointContext;
  return checkParameters(ctx).then(
    () => ctx.params,
    (err: unknown) => errorFacts(err),
  );
}

describe("checkParameters", () => {
  it("keeps the grant's parameters and drops unknown ones", async () => {
    expect(
      await run({ code: "c", redirect_uri: "https://a/cb", code_verifier: "v", state: "ignored", client_id: "x" }),
    ).toEqual({
      code: "c",
      redirect_uri: "https://a/cb",
      code_verifier: "v",
    });
  });

  it("a missing or empty required parameter is invalid_request naming it", async () => {
    const missing = await run({ code: "c" });
    expect(missing).toMatchObject({ reason: "INVALID_REQUEST" });
    expect((missing as { message: string }).message).toContain("redirect_uri");
    expect(await run({ code: "", redirect_uri: "https://a/cb" })).toMatchObject({ reason: "INVALID_REQUEST" });
  });

  it("a forbidden parameter is invalid_request; an empty one counts as absent", async () => {
    const f = await run({ code: "c", redirect_uri: "https://a/cb", scope: "x" });
    expect(f).toMatchObject({ reason: "INVALID_REQUEST" });
    expect((f as { message: string }).message).toContain("scope");
    expect(await run({ code: "c", redirect_uri: "https://a/cb", scope: "" })).toEqual({
      code: "c",
      redirect_uri: "https://a/cb",
    });
  });

  it("does not read inherited properties as parameters", async () => {
    const params = Object.create({ redirect_uri: "https://evil/cb" }) as Record<string, string>;
    params.code = "c";
    expect(await run(params)).toMatchObject({ reason: "INVALID_REQUEST" });
  });
});
