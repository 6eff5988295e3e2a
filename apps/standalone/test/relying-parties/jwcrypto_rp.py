"""jwcrypto (Debian python3-jwcrypto) as an integrator uses it: tokens from
the code flow with plain requests (confidential and public client), the
discovered JWKS loaded as a JWKSet (the key picked by kid), the ID token
and the access token (RFC 9068) checked by jwt.JWT with the one algorithm
discovery names and check_claims (iss, aud, exp, nonce; client_id).
"""
import json
from importlib.metadata import version

import requests
from jwcrypto import jwk, jwt

from rp_common import Report, discover, settings, verify_code_flow_tokens

s = settings()
report = Report("jwcrypto", version("jwcrypto"))
meta = discover(s["gatehouse_url"])
keyset = jwk.JWKSet.from_json(requests.get(meta["jwks_uri"], timeout=30).text)
algs = meta["id_token_signing_alg_values_supported"]


def checked(token, check_claims):
    verified = jwt.JWT(jwt=token, key=keyset, algs=algs, check_claims=check_claims)
    return verified.token.jose_header, json.loads(verified.claims)


def verify(tokens, client_id, nonce):
    header, claims = checked(tokens["id_token"], {"iss": meta["issuer"], "aud": client_id, "exp": None, "nonce": nonce, "sub": None, "iat": None})
    return {"alg": header["alg"], "sub": claims["sub"], "aud": claims["aud"]}


def verify_access_token(tokens, client_id):
    header, claims = checked(tokens["access_token"], {"iss": meta["issuer"], "aud": meta["issuer"], "exp": None, "client_id": client_id})
    return {"client_id": claims["client_id"], "sub": claims["sub"], "typ": header.get("typ")}


verify_code_flow_tokens(report, s, meta, verify, verify_access_token)
