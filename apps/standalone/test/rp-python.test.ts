import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  debianPackages,
  PYTHON_PACKAGES,
  runPython,
  rpTarget,
  type RpReport,
  type RpTarget,
} from "./relying-parties.ts";
import { SIGNING_ALGS } from "./rp-helpers.ts";

// The Python client libraries issue 10 named (Authlib, python-jose, PyJWT,
// jwcrypto, requests-oauthlib), Debian bookworm's packages run by Debian's
// python3, each as an integrator wires it (relying-parties/*.py), for each
// SIGNING_ALG. Every step a program reports is asserted: passing ones by
// their facts, each library's known limit by its error and the reason.
const FULL_SCOPE = "openid profile email offline_access";
/** Everything an operator client may ask for: what client_credentials grants when no scope is asked. */
const OPERATOR_SCOPE = "apps:write apps:read admin admin:read admin:write";
const versions = await debianPackages(PYTHON_PACKAGES);

describe.each(SIGNING_ALGS)(
  `Python relying parties from Debian (${Object.values(versions).join(", ")}) (SIGNING_ALG=%s)`,
  (alg) => {
    let t: RpTarget;
    const reports: Record<string, RpReport> = {};
    beforeAll(async () => {
      t = await rpTarget(alg);
      const scripts = [
        "authlib_rp.py",
        "python_jose_rp.py",
        "pyjwt_rp.py",
        "jwcrypto_rp.py",
        "requests_oauthlib_rp.py",
      ];
      const done = await Promise.all(scripts.map((script) => runPython(script, t.env)));
      scripts.forEach((script, i) => (reports[script] = done[i]!));
    });
    afterAll(() => t?.s.close());

    const steps = (script: string) => reports[script]!.steps;
    const idToken = (client: string) => ({ ok: true, alg, sub: String(t.user.id), aud: client });

    it("Authlib: discovery, client_credentials, code + PKCE (confidential and public), ID token, UserInfo, introspection, refresh rotation and reuse, revocation", () => {
      const r = steps("authlib_rp.py");
      expect(Object.keys(r).sort()).toEqual(
        [
          "discovery",
          "discovery_but_rs256_rule",
          "discovery_rfc8414",
          "client_credentials_basic",
          "client_credentials_post",
          "operator_client_credentials_basic",
          "operator_client_credentials_post",
        ]
          .concat(
            ["code_pkce", "id_token_signature", "id_token", "userinfo", "refresh"].flatMap((x) => [
              `confidential_${x}`,
              `public_${x}`,
            ]),
          )
          .concat([
            "confidential_introspection",
            "confidential_revocation",
            "public_revocation",
            "native_code_pkce",
            "native_id_token_signature",
            "native_id_token",
          ])
          .sort(),
      );
      if (alg === "RS256") expect(r.discovery).toMatchObject({ ok: true, issuer: t.env.GATEHOUSE_URL });
      // Limit by configuration: OpenID Connect Discovery 1.0 section 3 wants RS256 in
      // id_token_signing_alg_values_supported, which lists exactly the one SIGNING_ALG
      // (contract section 9); Authlib's metadata validation then refuses the document.
      // Every other rule of it holds.
      else expect(r.discovery).toMatchObject({ ok: false, error: expect.stringContaining('"RS256" MUST be included') });
      expect(r.discovery_but_rs256_rule).toMatchObject({ ok: true });
      // RFC 8414's document: valid, and the same values as OpenID Connect's.
      expect(r.discovery_rfc8414).toEqual({ ok: true, same_as_openid: true });
      for (const m of ["basic", "post"]) {
        expect(r[`client_credentials_${m}`]).toEqual({
          ok: true,
          token_type: "Bearer",
          scope: "users:access",
          refresh_token: false,
        });
        // TRICKY_SECRET sent raw (Authlib's Basic) and in the body.
        expect(r[`operator_client_credentials_${m}`]).toEqual({
          ok: true,
          token_type: "Bearer",
          scope: OPERATOR_SCOPE,
          refresh_token: false,
        });
      }

      // A native app (public client) on a loopback redirect with the port it listens on (RFC 8252 section 7.3).
      expect(r.native_code_pkce).toEqual({ ok: true, token_type: "Bearer", refresh_token: true });
      for (const [who, client] of [
        ["confidential", t.app.id],
        ["public", t.app.entrypoint],
        ["native", t.app.entrypoint],
      ] as const) {
        if (who !== "native")
          expect(r[`${who}_code_pkce`]).toEqual({
            ok: true,
            token_type: "Bearer",
            scope: FULL_SCOPE,
            refresh_token: true,
          });
        expect(r[`${who}_id_token_signature`]).toMatchObject(idToken(client));
        // Limit of Authlib 1.2: its create_half_hash derives the hash from the
        // algorithm's name ("sha" + alg[2:]) and has none for EdDSA, so every
        // at_hash check fails (its signature check above passes).
        if (alg === "EdDSA")
          expect(r[`${who}_id_token`]).toMatchObject({
            ok: false,
            error: expect.stringContaining('Invalid claim "at_hash"'),
          });
        else expect(r[`${who}_id_token`]).toMatchObject({ ...idToken(client), at_hash: true });
        if (who === "native") continue;
        expect(r[`${who}_userinfo`]).toMatchObject({
          ok: true,
          sub: String(t.user.id),
          email: t.user.email,
          email_verified: true,
        });
      }
      expect(r.confidential_introspection).toMatchObject({
        ok: true,
        access: { active: true, client_id: t.app.id, sub: String(t.user.id), token_type: "Bearer", scope: FULL_SCOPE },
        refresh: { active: true, client_id: t.app.id, token_type: "refresh_token", aud: t.env.GATEHOUSE_URL },
      });
      expect(r.confidential_revocation).toEqual({ ok: true, status: 200, body: {}, active_after: false });
      expect(r.confidential_refresh).toEqual({
        ok: true,
        rotated: true,
        id_token: true,
        reuse: "invalid_grant",
        family_after_reuse: "invalid_grant",
      });
      expect(r.public_refresh).toEqual({ ok: true, rotated: true, id_token: true });
      expect(r.public_revocation).toEqual({
        ok: true,
        status: 200,
        content_type: expect.stringMatching(/^application\/json/),
        body: {},
        after: "invalid_grant",
      });
    });

    it.each(["python_jose_rp.py", "pyjwt_rp.py", "jwcrypto_rp.py"])(
      "%s: the ID token and the RFC 9068 access token verified against the JWKS",
      (script) => {
        const r = steps(script);
        expect(Object.keys(r).sort()).toEqual(
          ["code_pkce", "id_token", "access_token"].flatMap((x) => [`confidential_${x}`, `public_${x}`]).sort(),
        );
        for (const [who, client] of [
          ["confidential", t.app.id],
          ["public", t.app.entrypoint],
        ] as const) {
          expect(r[`${who}_code_pkce`]).toEqual({ ok: true, scope: FULL_SCOPE });
          // Limit of python-jose 3.3: no OKP key type, so it cannot load an Ed25519 key (EdDSA).
          if (script === "python_jose_rp.py" && alg === "EdDSA") {
            for (const token of ["id_token", "access_token"])
              expect(r[`${who}_${token}`]).toMatchObject({
                ok: false,
                error: expect.stringMatching(/^JWKError: Unable to find an algorithm for key: .*'kty': 'OKP'/),
              });
            continue;
          }
          expect(r[`${who}_id_token`]).toMatchObject(idToken(client));
          expect(r[`${who}_access_token`]).toEqual({
            ok: true,
            client_id: client,
            sub: String(t.user.id),
            typ: "at+jwt",
          });
        }
        // python-jose checks at_hash itself (its access_token argument).
        if (script === "python_jose_rp.py" && alg !== "EdDSA")
          expect(r.confidential_id_token).toMatchObject({ at_hash: true });
      },
    );

    it("requests-oauthlib: client_credentials, code + PKCE (confidential, and public with and without include_client_id), UserInfo, refresh rotation (called and automatic), logout", () => {
      const r = steps("requests_oauthlib_rp.py");
      const code = {
        ok: true,
        token_type: "Bearer",
        scope: FULL_SCOPE.split(" "),
        id_token: true,
        refresh_token: true,
      };
      for (const m of ["basic", "post"]) {
        expect(r[`client_credentials_${m}`]).toEqual({ ok: true, token_type: "Bearer", scope: ["users:access"] });
        // TRICKY_SECRET sent raw (requests' HTTPBasicAuth) and in the body.
        expect(r[`operator_client_credentials_${m}`]).toEqual({
          ok: true,
          token_type: "Bearer",
          scope: OPERATOR_SCOPE.split(" "),
        });
      }
      expect(r.confidential_code_pkce).toEqual(code);
      // Its default for a client without a secret: Basic "client_id:" (an empty password).
      expect(r.public_code_pkce_default).toEqual(code);
      expect(r.public_code_pkce).toEqual(code);
      for (const who of ["confidential", "public"]) {
        expect(r[`${who}_userinfo`]).toMatchObject({ ok: true, sub: String(t.user.id), email: t.user.email });
        expect(r[`${who}_refresh`]).toEqual({ ok: true, rotated: true, id_token: true });
      }
      // An expired access token: the session refreshes by itself (auto_refresh_url) and hands the rotated tokens to token_updater.
      expect(r.confidential_auto_refresh).toEqual({ ok: true, sub: String(t.user.id), updated: 1, rotated: true });
      // RP-initiated logout (plain requests): back to the registered URI as it is, the refresh token dead.
      expect(r.confidential_logout).toEqual({
        ok: true,
        status: 302,
        location: t.env.REDIRECT_URI,
        refresh_after: "invalid_grant",
      });
      expect(Object.keys(r)).toHaveLength(13);
    });
  },
);
