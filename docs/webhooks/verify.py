import base64
import hashlib
import hmac
import time


def verify_monei(body: bytes, header: str, api_key: str, tolerance: int = 300) -> bool:
    """True when `header` (the MONEI-Signature value) signs the raw `body` with `api_key`."""
    pairs = [item.strip().partition("=") for item in header.split(",")]
    timestamps = [value for key, _, value in pairs if key == "t"]
    signatures = [value for key, _, value in pairs if key == "v1"]  # only v1 counts: no downgrade
    if len(timestamps) != 1 or not timestamps[0].isdigit() or not signatures:
        return False
    signed = timestamps[0].encode() + b"." + body
    expected = hmac.new(api_key.encode(), signed, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, signature) for signature in signatures):
        return False
    return abs(time.time() - int(timestamps[0])) <= tolerance


def verify_standard(body: bytes, headers: dict, secret: str, tolerance: int = 300) -> bool:
    """True when the webhook-id/-timestamp/-signature headers sign `body` with the whsec_ secret."""
    headers = {name.lower(): value for name, value in headers.items()}
    msg_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    if not msg_id or not timestamp.isdigit():
        return False
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    offered = [entry.partition(",") for entry in headers.get("webhook-signature", "").split()]
    if not any(version == "v1" and hmac.compare_digest(expected, sig) for version, _, sig in offered):
        return False
    return abs(time.time() - int(timestamp)) <= tolerance
