"""PyJWT (Debian python3-jwt, with cryptography) as an integrator uses it:
tokens from the code flow with plain requests (confidential and public
client), the signing key picked by kid with PyJWKClient from the
discovered jwks_uri, jwt.decode of the ID token (audience, issuer, the
claims OpenID Connect requires) and of the access token (RFC 9068). PyJWT
does not check nonce or at_hash: the nonce is compared by hand.
"""
import jwt
from jwt import PyJWKClient

from rp_common import Report, discover, settings, verify_code_flow_tokens

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


def verify_access_token(tokens, _client_id):
    key = keys.get_signing_key_from_jwt(tokens["access_token"])
    claims = jwt.decode(tokens["access_token"], key.key, algorithms=[alg], audience=meta["issuer"], issuer=meta["issuer"],
                        options={"require": ["iss", "sub", "aud", "exp", "iat", "jti", "client_id"]})
    return {"client_id": claims["client_id"], "sub": claims["sub"], "typ": jwt.get_unverified_header(tokens["access_token"]).get("typ")}


verify_code_flow_tokens(report, s, meta, verify, verify_access_token)
