import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildGoProgram,
  debianPackages,
  GO_PACKAGES,
  runGo,
  rpTarget,
  type RpReport,
  type RpTarget,
} from "./relying-parties.ts";
import { SIGNING_ALGS } from "./rp-helpers.ts";

// go-oidc (v2) and golang.org/x/oauth2, Debian bookworm's packages, built
// once for this file in GOPATH mode (relying-parties/go-oidc), for each
// SIGNING_ALG: a server application and a public client. Every step the
// program reports is asserted: passing ones by their facts, each library's
// known limit by its error and the reason.
const versions = await debianPackages(GO_PACKAGES);
const binary = await buildGoProgram();
afterAll(() => rm(dirname(binary), { recursive: true, force: true }));

describe.each(SIGNING_ALGS)(
  `go-oidc + x/oauth2 from Debian (${Object.values(versions).join(", ")}) (SIGNING_ALG=%s)`,
  (alg) => {
    let t: RpTarget;
    let confidential: RpReport["steps"];
    let pub: RpReport["steps"];
    beforeAll(async () => {
      t = await rpTarget(alg);
      [{ steps: confidential }, { steps: pub }] = await Promise.all([
        runGo(binary, "confidential", t.env),
        runGo(binary, "public", t.env),
      ]);
    });
    afterAll(() => t?.s.close());

    /** The code flow's steps, shared by both clients. */
    function codeFlowSteps(r: RpReport["steps"], who: string, client: string) {
      expect(r.discovery).toEqual({ ok: true, algs: [alg] });
      expect(r[`${who}_code_pkce`]).toEqual({ ok: true, token_type: "Bearer", refresh_token: true });
      // Verified with SupportedSigningAlgs = discovery's id_token_signing_alg_values_supported.
      expect(r[`${who}_id_token`]).toEqual({
        ok: true,
        sub: String(t.user.id),
        aud: [client],
        issuer: t.env.GATEHOUSE_URL,
      });
      // Limit of go-oidc 2: IDToken.VerifyAccessToken knows the hashes of RS*, ES*
      // and PS* only, so at_hash cannot be checked on an EdDSA ID token.
      if (alg === "EdDSA")
        expect(r[`${who}_at_hash`]).toEqual({ ok: false, error: 'oidc: unsupported signing algorithm "EdDSA"' });
      else expect(r[`${who}_at_hash`]).toEqual({ ok: true });
      // Limit of go-oidc's defaults: a Config without SupportedSigningAlgs accepts
      // RS256 only (Gatehouse's default); ES256 and EdDSA need the setting.
      if (alg === "RS256") expect(r[`${who}_id_token_default_verifier`]).toEqual({ ok: true });
      else
        expect(r[`${who}_id_token_default_verifier`]).toEqual({
          ok: false,
          error: `oidc: id token signed with unsupported algorithm, expected ["RS256"] got "${alg}"`,
        });
      expect(r[`${who}_userinfo`]).toEqual({
        ok: true,
        sub: String(t.user.id),
        email: t.user.email,
        email_verified: true,
      });
      expect(r[`${who}_refresh`]).toEqual({ ok: true, rotated: true, id_token: true });
    }

    it("server application: discovery, client_credentials (Basic, post), code + PKCE, ID token, UserInfo, introspection, refresh rotation and reuse, revocation", () => {
      expect(Object.keys(confidential).sort()).toEqual(
        [
          "discovery",
          "client_credentials_basic",
          "client_credentials_post",
          "operator_client_credentials_basic",
          "operator_client_credentials_post",
          "confidential_refresh_reuse",
          "confidential_introspection",
          "confidential_revocation",
        ]
          .concat(
            ["code_pkce", "id_token", "at_hash", "id_token_default_verifier", "userinfo", "refresh"].map(
              (x) => `confidential_${x}`,
            ),
          )
          .sort(),
      );
      for (const m of ["basic", "post"]) {
        expect(confidential[`client_credentials_${m}`]).toEqual({
          ok: true,
          token_type: "Bearer",
          scope: "users:access",
        });
        // TRICKY_SECRET form-encoded in Basic (x/oauth2's url.QueryEscape) and in the body.
        expect(confidential[`operator_client_credentials_${m}`]).toEqual({
          ok: true,
          token_type: "Bearer",
          scope: "apps:write apps:read admin admin:read admin:write",
        });
      }
      codeFlowSteps(confidential, "confidential", t.app.id);
      // Introspection and revocation have no x/oauth2 call: net/http with SetBasicAuth (raw credentials).
      expect(confidential.confidential_introspection).toMatchObject({
        ok: true,
        status: 200,
        body: { active: true, client_id: t.app.id, token_type: "Bearer" },
      });
      expect(confidential.confidential_revocation).toEqual({
        ok: true,
        status: 200,
        content_type: expect.stringMatching(/^application\/json/),
        body: {},
      });
      expect(confidential.confidential_refresh_reuse).toEqual({
        ok: true,
        reuse: "invalid_grant",
        family_after_reuse: "invalid_grant",
      });
    });

    it("public client: code + PKCE with x/oauth2's default auth style and with AuthStyleInParams, a loopback redirect, ID token, UserInfo, refresh rotation, revocation", () => {
      expect(Object.keys(pub).sort()).toEqual(
        ["discovery", "public_code_pkce_autodetect", "native_code_pkce", "public_revocation"]
          .concat(
            ["code_pkce", "id_token", "at_hash", "id_token_default_verifier", "userinfo", "refresh"].map(
              (x) => `public_${x}`,
            ),
          )
          .sort(),
      );
      // AuthStyleAutoDetect first sends Basic "client_id:" (an empty secret), which is the public client.
      expect(pub.public_code_pkce_autodetect).toEqual({ ok: true });
      // A native app on a loopback redirect with the port it listens on (RFC 8252 section 7.3).
      expect(pub.native_code_pkce).toEqual({ ok: true, aud: [t.app.entrypoint] });
      codeFlowSteps(pub, "public", t.app.entrypoint);
      expect(pub.public_revocation).toEqual({
        ok: true,
        status: 200,
        content_type: expect.stringMatching(/^application\/json/),
        body: {},
        after: "invalid_grant",
      });
    });
  },
);
