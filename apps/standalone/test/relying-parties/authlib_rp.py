"""Authlib (Debian python3-authlib) as an integrator uses it against Gatehouse:
discovery validated by its OpenIDProviderMetadata, client_credentials, the
authorization code with PKCE as a confidential client (client_secret_basic)
and as a public client (an entry point id, method none), UserInfo,
introspection, refresh with rotation and reuse detection, revocation, and
the ID token checked by authlib.jose against the JWKS (CodeIDToken: nonce
and at_hash). Settings come from the environment (rp_common.SETTINGS);
AUTHLIB_INSECURE_TRANSPORT=1 lets it talk to a plain-HTTP test server.
"""
import authlib
import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, JWTClaims, jwt
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oidc.core import CodeIDToken
from authlib.oidc.discovery import OpenIDProviderMetadata

from rp_common import SCOPE, Report, discover, hosted_login, settings

s = settings()
report = Report("authlib", authlib.__version__)
meta = discover(s["gatehouse_url"])
jwks = JsonWebKey.import_key_set(requests.get(meta["jwks_uri"], timeout=30).json())


def validate_discovery(skip=()):
    metadata = OpenIDProviderMetadata(meta)
    for key in metadata.REGISTRY_KEYS:
        if key not in skip:
            getattr(metadata, f"validate_{key}")()
    return {"issuer": meta["issuer"]}


def verify_id_token(token, client_id, nonce, claims_cls):
    """CodeIDToken: every OpenID Connect check (at_hash included); JWTClaims: the signature and the options only."""
    claims = jwt.decode(
        token["id_token"], jwks, claims_cls=claims_cls,
        claims_options={"iss": {"essential": True, "value": meta["issuer"]}, "aud": {"essential": True, "value": client_id},
                        "nonce": {"essential": True, "value": nonce}},
        claims_params={"nonce": nonce, "client_id": client_id, "access_token": token["access_token"]},
    )
    claims.validate(leeway=5)
    return {"alg": claims.header["alg"], "sub": claims["sub"], "aud": claims["aud"], "at_hash": "at_hash" in claims}


def client_credentials(method, who="client"):
    session = OAuth2Session(s[f"{who}_id"], s[f"{who}_secret"], token_endpoint_auth_method=method)
    token = session.fetch_token(meta["token_endpoint"], grant_type="client_credentials")
    return {"token_type": token["token_type"], "scope": token.get("scope"), "refresh_token": "refresh_token" in token}


def code_flow(session, client_id, name):
    """The authorization request with PKCE and a nonce, the hosted login, the code grant, the ID token."""
    verifier = authlib.common.security.generate_token(48)
    nonce = authlib.common.security.generate_token(20)
    url, state = session.create_authorization_url(meta["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    callback = hosted_login(url, s["user_email"], s["user_password"])
    token = session.fetch_token(meta["token_endpoint"], authorization_response=callback, state=state, code_verifier=verifier)
    report.step(f"{name}_id_token_signature", lambda: verify_id_token(token, client_id, nonce, JWTClaims))
    report.step(f"{name}_id_token", lambda: verify_id_token(token, client_id, nonce, CodeIDToken))
    return token


def refresh_rotation(session, name):
    """A refresh rotates the refresh token; the spent one presented again is refused and revokes the family."""
    first = dict(session.token)
    refreshed = session.refresh_token(meta["token_endpoint"])
    facts = {"rotated": refreshed["refresh_token"] != first["refresh_token"], "id_token": "id_token" in refreshed}
    if name == "confidential":
        facts["reuse"] = refused(lambda: session.refresh_token(meta["token_endpoint"], refresh_token=first["refresh_token"]))
        facts["family_after_reuse"] = refused(lambda: session.refresh_token(meta["token_endpoint"], refresh_token=refreshed["refresh_token"]))
    return facts


def refused(call):
    try:
        call()
        return "accepted"
    except authlib.integrations.base_client.OAuthError as error:
        return error.error


def run(name, client_id, secret, method):
    session = OAuth2Session(client_id, secret, scope=SCOPE, redirect_uri=s["redirect_uri"], code_challenge_method="S256", token_endpoint_auth_method=method)
    token = {}

    def code():
        token.update(code_flow(session, client_id, name))
        return {"token_type": token["token_type"], "scope": token.get("scope"), "refresh_token": "refresh_token" in token}

    report.step(f"{name}_code_pkce", code)
    report.step(f"{name}_userinfo", lambda: session.get(meta["userinfo_endpoint"]).json())
    if name == "confidential":
        def introspect():
            access = session.introspect_token(meta["introspection_endpoint"], token=token["access_token"]).json()
            refresh = session.introspect_token(meta["introspection_endpoint"], token=token["refresh_token"], token_type_hint="refresh_token").json()
            return {"access": access, "refresh": refresh}

        report.step(f"{name}_introspection", introspect)

        def revoke_access():
            res = session.revoke_token(meta["revocation_endpoint"], token=token["access_token"], token_type_hint="access_token")
            after = session.introspect_token(meta["introspection_endpoint"], token=token["access_token"]).json()
            return {"status": res.status_code, "body": res.json(), "active_after": after["active"]}

        report.step(f"{name}_revocation", revoke_access)
    report.step(f"{name}_refresh", lambda: refresh_rotation(session, name))
    if name == "public":
        def revoke():
            live = session.token["refresh_token"]
            res = session.revoke_token(meta["revocation_endpoint"], token=live, token_type_hint="refresh_token")
            return {"status": res.status_code, "content_type": res.headers.get("content-type"), "body": res.json(),
                    "after": refused(lambda: session.refresh_token(meta["token_endpoint"], refresh_token=live))}

        report.step(f"{name}_revocation", revoke)


report.step("discovery", validate_discovery)
# OpenID Connect Discovery wants RS256 listed; with SIGNING_ALG=ES256 or EdDSA only that one is (contract section 9).
report.step("discovery_but_rs256_rule", lambda: validate_discovery(skip=("id_token_signing_alg_values_supported",)))


def validate_oauth_metadata():
    """RFC 8414's document, validated by Authlib's AuthorizationServerMetadata."""
    oauth = requests.get(s["gatehouse_url"] + "/.well-known/oauth-authorization-server", timeout=30).json()
    AuthorizationServerMetadata(oauth).validate()
    return {"same_as_openid": all(meta.get(k) == v for k, v in oauth.items())}


report.step("discovery_rfc8414", validate_oauth_metadata)
def native_app():
    """A native app (a CLI): the public client with a loopback redirect on the port it listens on."""
    session = OAuth2Session(s["public_client_id"], scope=SCOPE, redirect_uri=s["native_redirect_uri"], code_challenge_method="S256", token_endpoint_auth_method="none")
    token = code_flow(session, s["public_client_id"], "native")
    return {"token_type": token["token_type"], "refresh_token": "refresh_token" in token}


report.step("client_credentials_basic", lambda: client_credentials("client_secret_basic"))
report.step("client_credentials_post", lambda: client_credentials("client_secret_post"))
# A secret that reads differently raw and form-decoded; Authlib sends Basic credentials raw.
report.step("operator_client_credentials_basic", lambda: client_credentials("client_secret_basic", "operator"))
report.step("operator_client_credentials_post", lambda: client_credentials("client_secret_post", "operator"))
run("confidential", s["client_id"], s["client_secret"], "client_secret_basic")
run("public", s["public_client_id"], None, "none")
report.step("native_code_pkce", native_app)
report.print()
