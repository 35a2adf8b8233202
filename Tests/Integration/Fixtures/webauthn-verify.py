"""An independent relying party (py_webauthn, from PyPI) verifying what the lab's platform
authenticator wrote.

usage: webauthn-verify.py CEREMONIES_JSON

The file holds {"rpID", "origin", "registration": {challenge, credential}, "assertion": {challenge,
credential}}, bytes in base64url. Prints "registration verified", then "assertion verified"; any
refusal raises (exit 1).
"""
import base64
import json
import sys

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.structs import AuthenticationCredential, RegistrationCredential


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


with open(sys.argv[1]) as file:
    data = json.load(file)

registration = verify_registration_response(
    credential=json.dumps(data["registration"]["credential"]),
    expected_challenge=unb64(data["registration"]["challenge"]),
    expected_origin=data["origin"],
    expected_rp_id=data["rpID"],
    require_user_verification=True,
)
print("registration verified", registration.fmt, registration.credential_device_type.value, registration.credential_backed_up, flush=True)

assertion = verify_authentication_response(
    credential=json.dumps(data["assertion"]["credential"]),
    expected_challenge=unb64(data["assertion"]["challenge"]),
    expected_origin=data["origin"],
    expected_rp_id=data["rpID"],
    credential_public_key=registration.credential_public_key,
    credential_current_sign_count=0,
    require_user_verification=True,
)
print("assertion verified", assertion.new_sign_count, assertion.user_verified, flush=True)
