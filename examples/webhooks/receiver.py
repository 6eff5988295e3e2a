"""A webhook receiver in Python that verifies Standard Webhooks signatures with
the standard library alone (the standardwebhooks package does the same:
`Webhook(secret).verify(body, headers)`).

    WEBHOOK_SECRET=whsec_... PORT=3000 python3 receiver.py

Answers 204 to a verified delivery (and prints the event as one JSON line),
400 to anything else. Repeats (at least once) are folded by webhook-id.
"""

import base64
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

KEY = base64.b64decode(os.environ["WEBHOOK_SECRET"].removeprefix("whsec_"))
TOLERANCE = 5 * 60
seen = set()


def verified(headers, body: bytes) -> bool:
    msg_id = headers.get("webhook-id", "")
    stamp = headers.get("webhook-timestamp", "")
    if not msg_id or not stamp.isdigit() or abs(time.time() - int(stamp)) > TOLERANCE:
        return False
    signed = f"{msg_id}.{stamp}.".encode() + body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest()).decode()
    # Several signatures during a secret rotation, space-separated: any one that matches.
    for sig in headers.get("webhook-signature", "").split():
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if not verified(self.headers, body):
            self.send_response(400)
            self.end_headers()
            return
        event = json.loads(body)
        if event["id"] not in seen:
            seen.add(event["id"])
            # Act here: provision on user.created, sync on user.updated, erase on user.deleted.
            print(json.dumps({"verified": True, "id": event["id"], "type": event["type"], "data": event["data"]}), flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "3000"))), Receiver)
print(json.dumps({"listening": True}), flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
