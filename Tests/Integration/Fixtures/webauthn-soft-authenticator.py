"""An independent authenticator (soft-webauthn, from PyPI) against the lab's website behind nginx.

usage: webauthn-soft-authenticator.py ADDRESS PORT CA_FILE

Registers a passkey for a new account, signs in with it, then tries each refusal a relying party
must make. Prints one JSON object per step: {"step", "status", "error"}; the Swift test checks them.
"""
import base64
import http.client
import json
import os
import socket
import ssl
import sys

import soft_webauthn
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2.utils import sha256

ADDRESS, PORT, CA_FILE = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HOST = "example.com"
ORIGIN = f"https://{HOST}:{PORT}"


class Connection(http.client.HTTPSConnection):
    """HTTPS to nginx's address, with SNI and Host example.com (as curl --resolve does)."""

    def connect(self):
        sock = socket.create_connection((ADDRESS, PORT), timeout=10)
        self.sock = self._context.wrap_socket(sock, server_hostname=HOST)


def call(path, body, token=None):
    context = ssl.create_default_context(cafile=CA_FILE)
    connection = Connection(HOST, PORT, context=context)
    headers = {"Content-Type": "application/json", "Host": f"{HOST}:{PORT}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request("POST", path, body=json.dumps(body), headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def b64(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def creation_options(begun):
    options = begun["publicKey"]
    options["challenge"] = unb64(options["challenge"])
    options["user"]["id"] = unb64(options["user"]["id"])
    return {"publicKey": options}


def request_options(begun):
    options = begun["publicKey"]
    options["challenge"] = unb64(options["challenge"])
    return {"publicKey": options}


def credential_json(credential):
    response = {key: b64(value) for key, value in credential["response"].items() if value is not None}
    return {"id": b64(credential["rawId"]), "rawId": b64(credential["rawId"]), "type": "public-key", "response": response}


def report(step, status, answer):
    print(json.dumps({"step": step, "status": status, "error": answer.get("error")}), flush=True)


def sign_in(device, step, origin=ORIGIN, tamper=None, rp_id=None):
    status, begun = call("/api/v1/passkeys/authentication/options", {})
    options = request_options(begun)
    if rp_id:
        options["publicKey"]["rpId"] = rp_id
    assertion = device.get(options, origin)
    credential = credential_json(assertion)
    if tamper:
        tamper(credential)
    status, answer = call("/api/v1/passkeys/authentication", {"ceremony": begun["ceremony"], "credential": credential})
    report(step, status, answer)
    return begun["ceremony"], credential


device = soft_webauthn.SoftWebauthnDevice()
status, begun = call("/api/v1/passkeys/registration/options", {"username": "pat"})
created = device.create(creation_options(begun), ORIGIN)
status, answer = call("/api/v1/passkeys/registration", {"ceremony": begun["ceremony"], "credential": credential_json(created)})
report("register", status, answer)

ceremony, credential = sign_in(device, "sign-in")
# The same answer again: its ceremony was used up.
status, answer = call("/api/v1/passkeys/authentication", {"ceremony": ceremony, "credential": credential})
report("replayed-ceremony", status, answer)
# The old answer to a new ceremony: its challenge is not the new one.
status, begun = call("/api/v1/passkeys/authentication/options", {})
status, answer = call("/api/v1/passkeys/authentication", {"ceremony": begun["ceremony"], "credential": credential})
report("replayed-challenge", status, answer)

sign_in(device, "wrong-origin", origin="https://evil.example")
# The right host on another port is another origin.
sign_in(device, "wrong-port", origin=f"https://{HOST}:{PORT + 1}")


def other_id(credential):
    credential["id"] = b64(b"another credential")


sign_in(device, "id-not-rawid", tamper=other_id)


def padded_id(credential):
    # The same credential ID, padded: WebAuthn's base64url has no padding.
    credential["id"] = base64.urlsafe_b64encode(unb64(credential["rawId"])).decode("ascii")


def standard_base64_id(credential):
    credential["id"] = base64.b64encode(unb64(credential["rawId"])).decode("ascii")


sign_in(device, "padded-id", tamper=padded_id)
sign_in(device, "standard-base64-id", tamper=standard_base64_id)


def backup_eligible(credential):
    # BE set on an answer from a credential registered without it, signed again by its own key.
    data = bytearray(unb64(credential["response"]["authenticatorData"]))
    data[32] |= 0x08
    client_data = unb64(credential["response"]["clientDataJSON"])
    signature = device.private_key.sign(bytes(data) + sha256(client_data), ec.ECDSA(hashes.SHA256()))
    credential["response"]["authenticatorData"] = b64(bytes(data))
    credential["response"]["signature"] = b64(signature)


sign_in(device, "backup-eligibility-changed", tamper=backup_eligible)


def flip_signature(credential):
    signature = bytearray(unb64(credential["response"]["signature"]))
    signature[-1] ^= 0x01
    credential["response"]["signature"] = b64(bytes(signature))


sign_in(device, "bad-signature", tamper=flip_signature)
device.rp_id = "evil.example"
sign_in(device, "wrong-rp-id", rp_id="evil.example")
device.rp_id = HOST
device.sign_count = 0
sign_in(device, "counter-rollback")

stranger = soft_webauthn.SoftWebauthnDevice()
stranger.cred_init(HOST, b"nobody")
sign_in(stranger, "unknown-credential")



class Copycat(soft_webauthn.SoftWebauthnDevice):
    """An authenticator that reuses another's credential ID for a new account."""

    def cred_init(self, rp_id, user_handle):
        super().cred_init(rp_id, user_handle)
        self.credential_id = device.credential_id


status, begun = call("/api/v1/passkeys/registration/options", {"username": "sam"})
copied = Copycat().create(creation_options(begun), ORIGIN)
status, answer = call("/api/v1/passkeys/registration", {"ceremony": begun["ceremony"], "credential": credential_json(copied)})
report("credential-taken", status, answer)

# A second registration by the same authenticator for a taken name.
status, begun = call("/api/v1/passkeys/registration/options", {"username": "pat"})
report("name-taken", status, begun)

# Another account with a passkey of its own; pat's passkey answering with its user handle is a
# malformed answer (the credential is known, and the answer contradicts it).
status, begun = call("/api/v1/passkeys/registration/options", {"username": "sam"})
sam_handle = begun["publicKey"]["user"]["id"]
created = soft_webauthn.SoftWebauthnDevice().create(creation_options(begun), ORIGIN)
status, answer = call("/api/v1/passkeys/registration", {"ceremony": begun["ceremony"], "credential": credential_json(created)})
report("second-account", status, answer)


def another_accounts_user_handle(credential):
    credential["response"]["userHandle"] = sam_handle


sign_in(device, "another-accounts-user-handle", tamper=another_accounts_user_handle)
