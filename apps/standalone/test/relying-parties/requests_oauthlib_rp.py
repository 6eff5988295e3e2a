"""requests-oauthlib (Debian python3-requests-oauthlib, oauthlib 3.2) as an
integrator uses it: client_credentials (BackendApplicationClient), the
authorization code with PKCE (1.3 has no PKCE helper: code_challenge and
code_verifier are passed as extra parameters) as a confidential client
(HTTP Basic, its default) and as a public client, UserInfo through the
session, refresh with rotation (called, and automatic on an expired
token with auto_refresh_url), RP-initiated logout with requests. It has no revocation or introspection.
OAUTHLIB_INSECURE_TRANSPORT=1 lets it talk to a plain-HTTP test server.
"""
import secrets
import time
from importlib.metadata import version

import requests
from oauthlib.oauth2 import BackendApplicationClient
from requests_oauthlib import OAuth2Session

from rp_common import SCOPE, Report, discover, hosted_login, pkce_pair, settings

s = settings()
report = Report("requests-oauthlib", version("requests-oauthlib"))
meta = discover(s["gatehouse_url"])


def client_credentials(include_client_id, who="client"):
    client_id, secret = s[f"{who}_id"], s[f"{who}_secret"]
    session = OAuth2Session(client=BackendApplicationClient(client_id=client_id))
    token = session.fetch_token(meta["token_endpoint"], client_id=client_id, client_secret=secret, include_client_id=include_client_id)
    return {"token_type": token["token_type"], "scope": token.get("scope")}


def code_flow(session, **token_args):
    verifier, challenge = pkce_pair()
    url, state = session.authorization_url(meta["authorization_endpoint"], code_challenge=challenge, code_challenge_method="S256", nonce=secrets.token_urlsafe(16))
    callback = hosted_login(url, s["user_email"], s["user_password"])
    token = session.fetch_token(meta["token_endpoint"], authorization_response=callback, code_verifier=verifier, **token_args)
    return {"token_type": token["token_type"], "scope": token["scope"], "id_token": "id_token" in token, "refresh_token": "refresh_token" in token}


def refresh(session, **auth):
    before = session.token["refresh_token"]
    token = session.refresh_token(meta["token_endpoint"], **auth)
    return {"rotated": token["refresh_token"] != before, "id_token": "id_token" in token}


def userinfo(session):
    res = session.get(meta["userinfo_endpoint"])
    res.raise_for_status()
    return res.json()


report.step("client_credentials_basic", lambda: client_credentials(None))
report.step("client_credentials_post", lambda: client_credentials(True))
# A secret that reads differently raw and form-decoded; requests' HTTPBasicAuth sends it raw.
report.step("operator_client_credentials_basic", lambda: client_credentials(None, "operator"))
report.step("operator_client_credentials_post", lambda: client_credentials(True, "operator"))

confidential = OAuth2Session(s["client_id"], redirect_uri=s["redirect_uri"], scope=SCOPE.split())
report.step("confidential_code_pkce", lambda: code_flow(confidential, client_secret=s["client_secret"]))
report.step("confidential_userinfo", lambda: userinfo(confidential))
report.step("confidential_refresh", lambda: refresh(confidential, auth=(s["client_id"], s["client_secret"])))


def auto_refresh():
    """An expired access token: the session refreshes it itself (client_secret_post from auto_refresh_kwargs) and hands the new tokens to token_updater."""
    saved = []
    expired = {**confidential.token, "expires_in": -30, "expires_at": time.time() - 30}
    session = OAuth2Session(s["client_id"], token=expired, auto_refresh_url=meta["token_endpoint"], token_updater=saved.append,
                            auto_refresh_kwargs={"client_id": s["client_id"], "client_secret": s["client_secret"]})
    info = userinfo(session)
    confidential.token = saved[0]  # the application stores the rotated tokens (the old refresh token is spent)
    return {"sub": info["sub"], "updated": len(saved), "rotated": saved[0]["refresh_token"] != expired["refresh_token"]}


report.step("confidential_auto_refresh", auto_refresh)

# A client without a secret: by default fetch_token sends Basic "client_id:" (an empty password).
default_public = OAuth2Session(s["public_client_id"], redirect_uri=s["redirect_uri"], scope=SCOPE.split())
report.step("public_code_pkce_default", lambda: code_flow(default_public))
# include_client_id=True: the client_id in the body and no Authorization header (token_endpoint_auth_method none).
public = OAuth2Session(s["public_client_id"], redirect_uri=s["redirect_uri"], scope=SCOPE.split())
report.step("public_code_pkce", lambda: code_flow(public, include_client_id=True))
report.step("public_userinfo", lambda: userinfo(public))
report.step("public_refresh", lambda: refresh(public, client_id=s["public_client_id"]))


def logout():
    """RP-initiated logout as an integrator writes it (no library call): the browser sent to end_session_endpoint."""
    res = requests.get(meta["end_session_endpoint"], params={"id_token_hint": confidential.token["id_token"], "post_logout_redirect_uri": s["redirect_uri"]},
                       allow_redirects=False, timeout=30)
    after = requests.post(meta["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": confidential.token["refresh_token"]},
                          auth=(s["client_id"], s["client_secret"]), timeout=30)
    return {"status": res.status_code, "location": res.headers.get("location"), "refresh_after": after.json().get("error")}


report.step("confidential_logout", logout)
report.print()
