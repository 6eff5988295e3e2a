"""python-jose (Debian python3-jose, cryptography backend) as an integrator
uses it: tokens from the code flow with plain requests (confidential client,
HTTP Basic; public client, client_id alone), then jose.jwt.decode with the
JWKS: the ID token (audience, issuer, at_hash from the access token) and the
access token as an RFC 9068 JWT. The nonce is checked by hand (python-jose
has no nonce option).
"""
import jose
import requests
from jose import jwt

from rp_common import Report, discover, settings, verify_code_flow_tokens

s = settings()
report = Report("python-jose", jose.__version__)
meta = discover(s["gatehouse_url"])
jwks = requests.get(meta["jwks_uri"], timeout=30).json()
alg = s["signing_alg"]


def verify(tokens, client_id, nonce):
    claims = jwt.decode(tokens["id_token"], jwks, algorithms=[alg], audience=client_id, issuer=meta["issuer"], access_token=tokens["access_token"])
    if claims["nonce"] != nonce:
        raise ValueError("nonce mismatch")
    return {"alg": jwt.get_unverified_header(tokens["id_token"])["alg"], "sub": claims["sub"], "aud": claims["aud"], "at_hash": "at_hash" in claims}


def verify_access_token(tokens, _client_id):
    # RFC 9068: aud is the resource (Gatehouse's issuer), client_id names the client.
    claims = jwt.decode(tokens["access_token"], jwks, algorithms=[alg], audience=meta["issuer"], issuer=meta["issuer"])
    return {"client_id": claims["client_id"], "sub": claims["sub"], "typ": jwt.get_unverified_header(tokens["access_token"]).get("typ")}


verify_code_flow_tokens(report, s, meta, verify, verify_access_token)
