"""What every Python relying-party program shares: its settings from the
environment, the discovery document, the user's part of the hosted login
(GET the form, post it back with its cookie, as rp-helpers.ts does) and a
report of named steps printed as one JSON object.

Each step records {"ok": true, ...facts} or {"ok": false, "error": ...}; a
failing step does not stop the steps after it, so the test sees every
library limitation by name (relying-parties.ts runs the programs).
"""
import base64
import hashlib
import json
import os
import re
import secrets
import sys
import traceback
from urllib.parse import parse_qs, urljoin, urlparse

import requests

SETTINGS = ("GATEHOUSE_URL", "CLIENT_ID", "CLIENT_SECRET", "PUBLIC_CLIENT_ID", "USER_EMAIL", "USER_PASSWORD", "REDIRECT_URI", "NATIVE_REDIRECT_URI", "SIGNING_ALG", "OPERATOR_ID", "OPERATOR_SECRET")
SCOPE = "openid profile email offline_access"


def settings():
    missing = [k for k in SETTINGS if not os.environ.get(k)]
    if missing:
        sys.exit("missing environment: " + ", ".join(missing))
    return {k.lower(): os.environ[k] for k in SETTINGS}


def discover(base):
    res = requests.get(base + "/.well-known/openid-configuration", timeout=30)
    res.raise_for_status()
    return res.json()


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def hosted_login(authorization_url, email, password):
    """The browser's part: the login page, the form posted with its cookie, the 303 to the redirect URI."""
    with requests.Session() as browser:
        page = browser.get(authorization_url, allow_redirects=False, timeout=30)
        if page.status_code != 200:
            raise RuntimeError(f"authorize answered {page.status_code}: {page.text[:300]}")
        token = re.search(r'name="form_token" value="([^"]+)"', page.text).group(1)
        done = browser.post(
            urljoin(authorization_url, "/oauth2/authorize"),
            data={"form_token": token, "email": email, "password": password},
            allow_redirects=False,
            timeout=30,
        )
        if done.status_code != 303:
            raise RuntimeError(f"login answered {done.status_code}: {done.text[:300]}")
        return done.headers["location"]


def code_flow_with_requests(s, meta, client_id, auth=None, nonce=None):
    """Authorization code + PKCE with plain requests, for the JOSE-only libraries (python-jose, PyJWT, jwcrypto)."""
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)
    nonce = nonce or secrets.token_urlsafe(16)
    request = requests.Request("GET", meta["authorization_endpoint"], params={
        "response_type": "code", "client_id": client_id, "redirect_uri": s["redirect_uri"], "scope": SCOPE,
        "state": state, "nonce": nonce, "code_challenge": challenge, "code_challenge_method": "S256",
    }).prepare()
    callback = hosted_login(request.url, s["user_email"], s["user_password"])
    query = callback_query(callback)
    if query.get("state") != state:
        raise RuntimeError("state mismatch")
    form = {"grant_type": "authorization_code", "code": query["code"], "redirect_uri": s["redirect_uri"], "code_verifier": verifier}
    if auth is None:
        form["client_id"] = client_id
    res = requests.post(meta["token_endpoint"], data=form, auth=auth, timeout=30)
    if res.status_code != 200:
        raise RuntimeError(f"token endpoint answered {res.status_code}: {res.text}")
    return res.json(), nonce


def callback_query(url):
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


class Report:
    def __init__(self, library, version):
        self.result = {"library": library, "version": version, "steps": {}}

    def step(self, name, fn):
        """Runs fn; its dict (facts for the test) or its exception is recorded under name. Returns fn's value or None."""
        try:
            facts = fn()
            self.result["steps"][name] = {"ok": True, **(facts or {})}
            return facts
        except Exception as error:  # a library's refusal is a result here, reported by name
            self.result["steps"][name] = {"ok": False, "error": f"{type(error).__name__}: {error}", "where": traceback.format_exc(limit=-3)}
            return None

    def print(self):
        json.dump(self.result, sys.stdout)
        sys.stdout.write("\n")


def verify_code_flow_tokens(report, s, meta, verify, verify_access_token):
    """The JOSE libraries' steps: a code flow (with requests) as the confidential and as the public
    client, then the library's checks of the ID token and of the access token (each given the client id)."""
    for name, client_id, auth in (("confidential", s["client_id"], (s["client_id"], s["client_secret"])), ("public", s["public_client_id"], None)):
        got = report.step(f"{name}_code_pkce", lambda: dict(zip(("tokens", "nonce"), code_flow_with_requests(s, meta, client_id, auth))))
        if got:
            report.result["steps"][f"{name}_code_pkce"] = {"ok": True, "scope": got["tokens"].get("scope")}
            report.step(f"{name}_id_token", lambda: verify(got["tokens"], client_id, got["nonce"]))
            report.step(f"{name}_access_token", lambda: verify_access_token(got["tokens"], client_id))
    report.print()
