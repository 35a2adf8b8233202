"""An independent relying party (py_webauthn, from PyPI) verifying what the lab's platform
authenticator wrote, in WebAuthn Level 3's JSON, as it is.

usage: webauthn-verify.py CEREMONIES_JSON

The file holds {"rpID", "origin", "registration": {challenge, credential}, "assertion": {challenge,
credential}}: each credential a RegistrationResponseJSON or AuthenticationResponseJSON as printed,
challenges in base64url. The credentials go to py_webauthn's parsers and verifiers unchanged; the
Level 3 members a client copies out of the attestation object are checked against it. Prints
"registration verified", "registration json", then "assertion verified"; any refusal raises
(exit 1).
"""
import base64
import json
import sys

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_der_public_key
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import (
    decode_credential_public_key,
    parse_authentication_credential_json,
    parse_cbor,
    parse_registration_credential_json,
)


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check(condition, what):
    if not condition:
        raise SystemExit(f"the Level 3 JSON is wrong: {what}")


with open(sys.argv[1]) as file:
    data = json.load(file)

created = data["registration"]["credential"]
credential = parse_registration_credential_json(json.dumps(created))
registration = verify_registration_response(
    credential=credential,
    expected_challenge=unb64(data["registration"]["challenge"]),
    expected_origin=data["origin"],
    expected_rp_id=data["rpID"],
    require_user_verification=True,
)
print("registration verified", registration.fmt, registration.credential_device_type.value, registration.credential_backed_up, flush=True)

# The members Level 3 added are copies of what the attestation object holds.
response = created["response"]
check(set(created) >= {"id", "rawId", "response", "type", "clientExtensionResults"}, f"members {sorted(created)}")
check(created["clientExtensionResults"] == {}, "clientExtensionResults")
check(created["id"] == created["rawId"] and "=" not in created["id"], "id is not rawId, unpadded")
auth_data = parse_cbor(unb64(response["attestationObject"]))["authData"]
check(unb64(response["authenticatorData"]) == auth_data, "authenticatorData is not the attestation object's")
check(response["publicKeyAlgorithm"] == -7, "publicKeyAlgorithm")
check(response["transports"] == sorted(set(response["transports"])), "transports are not unique and sorted")
check([t.value for t in credential.response.transports] == response["transports"], "py_webauthn did not read the transports")
spki = load_der_public_key(unb64(response["publicKey"]))
cose = decode_credential_public_key(registration.credential_public_key)
numbers = spki.public_numbers()
check(isinstance(spki, ec.EllipticCurvePublicKey) and isinstance(spki.curve, ec.SECP256R1), "publicKey is not P-256")
check(numbers.x.to_bytes(32, "big") == cose.x and numbers.y.to_bytes(32, "big") == cose.y, "publicKey is not the attested key")
attachment = created.get("authenticatorAttachment")
print("registration json", ",".join(response["transports"]), attachment, credential.authenticator_attachment.value, flush=True)

assertion = verify_authentication_response(
    credential=parse_authentication_credential_json(json.dumps(data["assertion"]["credential"])),
    expected_challenge=unb64(data["assertion"]["challenge"]),
    expected_origin=data["origin"],
    expected_rp_id=data["rpID"],
    credential_public_key=registration.credential_public_key,
    credential_current_sign_count=0,
    require_user_verification=True,
)
print("assertion verified", assertion.new_sign_count, assertion.user_verified, flush=True)
