import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftAuthenticator } from "@gatehouse/testing";
import { backends, caller, failure, startUsers, uniqueEmail, userObject, type Harness } from "../../test/harness.ts";
import { DEFAULT_LOGIN_LIMITS } from "../verifiers/throttle.ts";
import { passkeyVerifier } from "../verifiers/passkey/verifier.ts";
import { creationOptions, enrolPasskey } from "./enrolment.ts";
import type { PasskeyDeps } from "./relying-party.ts";
import { MAX_PASSKEYS } from "./relying-party.ts";
import { takeSignInChallenge } from "./challenges.ts";
import { signInOptions } from "./sign-in.ts";

const ORIGIN = "https://id.example.com";
const rp = { id: "example.com", origins: [ORIGIN, "https://app.example.com"], name: "Gatehouse" };

// The passkey ceremonies over the real stores: options, enrolment and the
// verifier, with a software authenticator.
describe.each(backends)("passkey ceremonies on %s", (_name, open) => {
  let h: Harness;
  let deps: PasskeyDeps;
  beforeAll(async () => {
    h = await startUsers(open);
    deps = { data: h.data, kv: h.kv, keys: h.keys, rp };
  });
  afterAll(() => h.close());

  async function newUser() {
    const res = await h.users.registerUser({
      caller: caller("open"),
      object: userObject(uniqueEmail(), { datas: { surname: { objectType: "data", value: "Pérez" } } }),
    });
    return (await h.data.users.byId(res.user!.id))!;
  }
  const verifier = () =>
    passkeyVerifier({
      users: h.data.users,
      passkeys: h.data.passkeys,
      kv: h.kv,
      keys: h.keys,
      rp,
      limits: DEFAULT_LOGIN_LIMITS,
    });
  const attempt = { clientAddress: "198.51.100.7" };

  it("creation options: discoverable, UV required, none, ES256 and RS256; the user handle is stable and opaque", async () => {
    const user = await newUser();
    const a = await creationOptions(deps, user);
    const b = await creationOptions(deps, user);
    expect(a.rp).toEqual({ id: "example.com", name: "Gatehouse" });
    expect(a.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(a.attestation).toBe("none");
    expect(a.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257]);
    expect(a.user.id).toBe(b.user.id);
    expect(a.challenge).not.toBe(b.challenge);
    expect(Buffer.from(a.user.id, "base64url").toString()).not.toContain(user.id);
  });

  it("enrols from any accepted origin once per challenge, and only for the user it was made for", async () => {
    const user = await newUser();
    const other = await newUser();
    const auth = new SoftAuthenticator("https://app.example.com");
    const options = await creationOptions(deps, user);
    const credential = auth.create(options);
    expect((await failure(enrolPasskey(deps, other.id, { name: "x", credential: credential as never }))).reason).toBe(
      "PASSKEY_INVALID",
    );
    // The foreign attempt spent the challenge.
    expect((await failure(enrolPasskey(deps, user.id, { name: "x", credential: credential as never }))).reason).toBe(
      "PASSKEY_INVALID",
    );
    const again = auth.create(await creationOptions(deps, user));
    const stored = await enrolPasskey(deps, user.id, { name: "  Key  ", credential: again as never });
    expect(stored).toMatchObject({
      userId: user.id,
      name: "Key",
      deviceType: "multiDevice",
      backedUp: true,
      counter: 0,
    });
  });

  it("the verifier proves the user and two factors; the counter must go up; the token works once", async () => {
    const user = await newUser();
    const auth = new SoftAuthenticator(ORIGIN);
    await enrolPasskey(deps, user.id, {
      name: "",
      credential: auth.create(await creationOptions(deps, user)) as never,
    });
    const bound = { clientId: "100000000001_shop", entrypointId: "100000000001_shop_open" };
    const start = () => signInOptions(deps, bound);
    let o = await start();
    const proved = await verifier().verify(
      { kind: "passkey", token: o.token, credential: auth.get(o.publicKey, { counter: 7 }) as never },
      attempt,
    );
    expect(proved).toMatchObject({ user: { id: user.id }, secondFactor: true });
    expect(
      (
        await failure(
          verifier().verify({ kind: "passkey", token: o.token, credential: auth.get(o.publicKey) as never }, attempt),
        )
      ).reason,
    ).toBe("INVALID_CREDENTIALS");
    o = await start();
    expect(
      (
        await failure(
          verifier().verify(
            { kind: "passkey", token: o.token, credential: auth.get(o.publicKey, { counter: 7 }) as never },
            attempt,
          ),
        )
      ).reason,
    ).toBe("INVALID_CREDENTIALS");
    const [stored] = await h.data.passkeys.ofUser(user.id);
    expect(stored).toMatchObject({ counter: 7, lastUsedAt: expect.any(Date) });
  });

  it("a sign-in challenge is sealed in its token: nothing is stored until it is taken, once, within 5 minutes, unaltered", async () => {
    const bound = { clientId: "app", entrypointId: "app_main" };
    const { publicKey, token } = await signInOptions(deps, bound);
    expect(await h.kv.get(`users:passkey:signin-used:${publicKey.challenge}`)).toBeNull();
    const altered = token.slice(0, -3) + (token.endsWith("AAA") ? "BBB" : "AAA");
    expect(await takeSignInChallenge(h.keys, h.kv, altered)).toBeNull();
    expect(await takeSignInChallenge(h.keys, h.kv, token, Date.now() + 301_000)).toBeNull();
    expect(await takeSignInChallenge(h.keys, h.kv, token)).toEqual({ challenge: publicKey.challenge, ...bound });
    expect(await takeSignInChallenge(h.keys, h.kv, token)).toBeNull();
  });

  it("a user holds at most MAX_PASSKEYS", async () => {
    const user = await newUser();
    for (let i = 0; i < MAX_PASSKEYS; i++)
      await h.data.passkeys.insert({
        id: `${i}`.padStart(24, "0") + user.id.slice(0, 0),
        userId: user.id,
        credentialId: `${user.id}-${i}`,
        publicKey: new Uint8Array(4),
        counter: 0,
        deviceType: "singleDevice",
        backedUp: false,
        transports: [],
        name: "k",
      });
    expect((await failure(creationOptions(deps, user))).reason).toBe("PASSKEY_LIMIT");
  });
});
