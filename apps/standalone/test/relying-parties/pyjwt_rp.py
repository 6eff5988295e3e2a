"""PyJWT (Debian python3-jwt, with cryptography) as an integrator uses it:
tokens from the code flow with plain requests (confidential and public
client), the signing key picked by kid with PyJWKClient from the
discovered jwks_uri, jwt.decode of the ID token (audience, issuer, the
claims OpenID Connect requires) and of the access token (RFC 9068). PyJWT
does not check nonce or at_hash: the nonce is compared by hand.
"""
import jwt
from jwt import PyJWKClient

from rp_common import Report, code_flow_with_requests, discover, settings

s = settings()
report = Report("pyjwt", jwt.__version__)
meta = discover(s["gatehouse_url"])
keys = PyJWKClient(meta["jwks_uri"])
alg = s["signing_alg"]


def verify(tokens, client_id, nonce):
    key = keys.get_signing_key_from_jwt(tokens["id_token"])
    claims = jwt.decode(tokens["id_token"], key.key, algorithms=[alg], audience=client_id, issuer=meta["issuer"],
                        options={"require": ["iss", "sub", "aud", "exp", "iat", "auth_time"]})
    if claims["nonce"] != nonce:
        raise ValueError("nonce mismatch")
    return {"alg": jwt.get_unverified_header(tokens["id_token"])["alg"], "kid": key.key_id, "sub": claims["sub"], "aud": claims["aud"]}


def verify_access_token(tokens):
    key = keys.get_signing_key_from_jwt(tokens["access_token"])
    claims = jwt.decode(tokens["access_token"], key.key, algorithms=[alg], audience=meta["issuer"], issuer=meta["issuer"],
                        options={"require": ["iss", "sub", "aud", "exp", "iat", "jti", "client_id"]})
    return {"client_id": claims["client_id"], "sub": claims["sub"], "typ": jwt.get_unverified_header(tokens["access_token"]).get("typ")}


for name, client_id, auth in (("confidential", s["client_id"], (s["client_id"], s["client_secret"])), ("public", s["public_client_id"], None)):
    got = report.step(f"{name}_code_pkce", lambda: dict(zip(("tokens", "nonce"), code_flow_with_requests(s, meta, client_id, auth))))
    if got:
        report.result["steps"][f"{name}_code_pkce"] = {"ok": True, "scope": got["tokens"].get("scope")}
        report.step(f"{name}_id_token", lambda: verify(got["tokens"], client_id, got["nonce"]))
        report.step(f"{name}_access_token", lambda: verify_access_token(got["tokens"]))
report.print()
