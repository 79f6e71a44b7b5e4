import { createHmac, timingSafeEqual } from "node:crypto";

// True when `header` (the MONEI-Signature value) signs the raw `body` (a Buffer) with `apiKey`.
export function verifyMonei(body, header, apiKey, toleranceSeconds = 300) {
  const pairs = header.split(",").map((item) => {
    const at = item.indexOf("=");
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
  });
  const timestamps = pairs.filter(([key]) => key === "t").map(([, value]) => value);
  const signatures = pairs.filter(([key]) => key === "v1").map(([, value]) => value); // only v1
  if (timestamps.length !== 1 || !/^\d+$/.test(timestamps[0]) || signatures.length === 0) return false;
  const expected = createHmac("sha256", apiKey)
    .update(Buffer.concat([Buffer.from(`${timestamps[0]}.`), body]))
    .digest();
  const matches = signatures.some((signature) => {
    const received = Buffer.from(signature, "hex");
    return received.length === expected.length && timingSafeEqual(received, expected);
  });
  return matches && Math.abs(Date.now() / 1000 - Number(timestamps[0])) <= toleranceSeconds;
}

// True when the webhook-id/-timestamp/-signature headers (lowercase names) sign `body` with the whsec_ secret.
export function verifyStandard(body, headers, secret, toleranceSeconds = 300) {
  const id = headers["webhook-id"] ?? "";
  const timestamp = headers["webhook-timestamp"] ?? "";
  if (!id || !/^\d+$/.test(timestamp)) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest();
  const matches = (headers["webhook-signature"] ?? "").split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    const received = Buffer.from(signature, "base64");
    return version === "v1" && received.length === expected.length && timingSafeEqual(received, expected);
  });
  return matches && Math.abs(Date.now() / 1000 - Number(timestamp)) <= toleranceSeconds;
}
