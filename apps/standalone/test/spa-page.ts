// A single-page application as a relying party would write it: no library,
// fetch and Web Crypto only. It signs in as a public client (its entry
// point id) with the authorization code flow and PKCE, then calls the token
// endpoint, UserInfo and revocation from the browser (CORS), and shows what
// it got. Served by the test from another origin than Gatehouse.

export function spaPage(opts: { issuer: string; clientId: string }): string {
  const script = `
const issuer = ${JSON.stringify(opts.issuer)};
const clientId = ${JSON.stringify(opts.clientId)};
const redirectUri = location.origin + "/callback";
const out = document.getElementById("result");
const show = (title, value) => { document.getElementById("status").textContent = title; out.textContent = JSON.stringify(value, null, 2); };
const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
const discover = async () => (await fetch(issuer + "/.well-known/openid-configuration")).json();
const form = (url, body) => fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });

async function signIn() {
  const meta = await discover();
  const verifier = random(), state = random(), nonce = random();
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  sessionStorage.setItem("pkce", JSON.stringify({ verifier, state, nonce }));
  location.assign(meta.authorization_endpoint + "?" + new URLSearchParams({
    client_id: clientId, redirect_uri: redirectUri, response_type: "code", scope: "openid profile email offline_access",
    code_challenge: challenge, code_challenge_method: "S256", state, nonce, login_hint: "ana@example.com",
  }));
}

async function callback() {
  const params = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem("pkce") || "{}");
  if (params.get("state") !== saved.state) return show("State mismatch", {});
  const meta = await discover();
  const token = await (await form(meta.token_endpoint, {
    grant_type: "authorization_code", client_id: clientId, code: params.get("code"), redirect_uri: redirectUri, code_verifier: saved.verifier,
  })).json();
  const idToken = JSON.parse(atob(token.id_token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  const userinfo = await (await fetch(meta.userinfo_endpoint, { headers: { authorization: "Bearer " + token.access_token } })).json();
  const refreshed = await (await form(meta.token_endpoint, { grant_type: "refresh_token", client_id: clientId, refresh_token: token.refresh_token })).json();
  const revocation = await form(meta.revocation_endpoint, { client_id: clientId, token: refreshed.refresh_token, token_type_hint: "refresh_token" });
  const jwks = await (await fetch(meta.jwks_uri)).json();
  show("Signed in as " + userinfo.email, {
    userinfo,
    idToken: { aud: idToken.aud, sub: idToken.sub, nonceMatches: idToken.nonce === saved.nonce, auth_time: idToken.auth_time },
    scope: token.scope,
    refreshed: Boolean(refreshed.access_token && refreshed.refresh_token !== token.refresh_token),
    revocation: { status: revocation.status, body: await revocation.json() },
    jwksKeys: jwks.keys.length,
  });
}

document.getElementById("sign-in").addEventListener("click", () => signIn().catch((e) => show("Error", String(e))));
if (location.pathname === "/callback") callback().catch((e) => show("Error", String(e)));
`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo SPA</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#222}pre{background:#f3f3f3;padding:1rem;border-radius:.5rem;font-size:13px}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>Demo SPA</h1><p id="status">Not signed in</p><button id="sign-in">Sign in with Gatehouse</button><pre id="result"></pre>
<script type="module">${script}</script></body></html>`;
}
