#!/usr/bin/env bash
# Walks the terminal lifecycle (docs/terminal-lifecycle.md) against a running `sandbox up`:
# portal activation, token activation (merchant API, and back office by e-mail), login, terminal
# info, session expiry, PIN lock and unlock, secret code change, logout, unregister, register again.
#
# Prints each step; stops with exit status 1 at the first answer the contract does not allow,
# showing the request and the answer. Needs only curl and python3.
#
#   scripts/walk.sh [--env EU] [--endpoints .sandbox/endpoints.json] [--sandbox-data sandbox-data] [--keep]
#
# It registers devices on free terminals only (so it can run again), moves the host's clock
# forward (sandbox clocks never go back), and unregisters its devices at the end unless --keep.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
region="EU"
endpoints=""
data="$root/sandbox-data"
keep=0

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --env) region="${2:?--env needs a region id}"; shift 2 ;;
        --endpoints) endpoints="${2:?--endpoints needs a file}"; shift 2 ;;
        --sandbox-data) data="${2:?--sandbox-data needs a folder}"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "walk.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
if [ -z "$endpoints" ]; then
    endpoints=".sandbox/endpoints.json"
    [ -f "$endpoints" ] || endpoints="$root/.sandbox/endpoints.json"
fi
for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "walk.sh: $tool is required" >&2; exit 2; }
done
[ -f "$endpoints" ] || { echo "walk.sh: no $endpoints; start 'sandbox up' (make run) or pass --endpoints FILE" >&2; exit 2; }
[ -f "$data/merchants.json" ] || { echo "walk.sh: no $data/merchants.json" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
body="$work/body"

# json EXPR [FILE]: evaluates a Python expression over the JSON document `d` (the last answer by
# default) and prints it: strings bare, booleans and null as JSON, nothing for a missing key.
json() {
    python3 - "$1" "${2:-$body}" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[2]))
except Exception:
    d = None
try:
    v = eval(sys.argv[1], {"d": d, "json": json})
except Exception:
    v = None
if v is None:
    print("")
elif isinstance(v, str):
    print(v)
else:
    print(json.dumps(v))
EOF
}

base="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["environments"].get(sys.argv[2], ""))' "$endpoints" "$region")"
[ -n "$base" ] || { echo "walk.sh: $endpoints names no host for region $region" >&2; exit 2; }
backoffice_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["regions"][sys.argv[2]]["backOfficeKey"])' "$data/merchants.json" "$region")"

step_no=0
last_request=""
status=0

# call METHOD PATH [BEARER] [JSON BODY]: sends one request; the answer's status goes to $status,
# its body to $body.
call() {
    local method="$1" path="$2" bearer="${3:-}" payload="${4:-}"
    local args=(-sS -o "$body" -w '%{http_code}' -X "$method" -H 'Accept: application/json' --max-time 15)
    [ -n "$bearer" ] && args+=(-H "Authorization: Bearer $bearer")
    # Every write declares JSON, body or not: the sandbox refuses one that does not.
    [ "$method" = GET ] || args+=(-H 'Content-Type: application/json')
    [ -n "$payload" ] && args+=(--data-binary "$payload")
    last_request="$method $path${payload:+ $payload}"
    : >"$body"
    status="$(curl "${args[@]}" "$base$path" 2>"$work/curl-error")" || status="000"
}

fail() {
    echo "  FAILED: $1" >&2
    echo "  request: $last_request" >&2
    if [ "$status" = "000" ]; then
        echo "  answer:  none: is 'sandbox up' running at $base?" >&2
    else
        echo "  answer:  $status $(head -c 800 "$body" 2>/dev/null)" >&2
    fi
    exit 1
}

# expect STATUS [ERROR CODE] STEP: checks the last answer (and the error envelope for errors).
expect() {
    local want="$1" code="" step
    if [ $# -ge 3 ]; then code="$2"; step="$3"; else step="$2"; fi
    step_no=$((step_no + 1))
    printf '%3d. %-62s %s\n' "$step_no" "$step" "$status${code:+ $code}"
    [ "$status" = "$want" ] || fail "expected $want${code:+ $code}"
    if [ -n "$code" ]; then
        [ "$(json 'd["error"]["code"]')" = "$code" ] || fail "expected error code $code"
        [ -n "$(json 'd["error"]["message"]')" ] || fail "the error envelope has no message"
    fi
}

# check PYTHON-CONDITION WHAT: a condition over the last answer `d`.
check() {
    [ "$(json "bool($1)")" = "true" ] || fail "$2 ($1)"
}

body_json() { python3 -c 'import json,sys; print(json.dumps(dict(zip(sys.argv[1::2], sys.argv[2::2]))))' "$@"; }

stamp="$(date +%s)-$$"
device_a="walk-sh-a-$stamp"
device_b="walk-sh-b-$stamp"
device_c="walk-sh-c-$stamp"
pin="2468"
new_pin="135790"
wrong_pin="0000"

echo "Terminal lifecycle walk on $region at $base"

# --- The environment, and free terminals to use -----------------------------------------------
call GET /v1/environment
expect 200 "environment"
session_length="$(json 'd["sessionLengthSeconds"]')"
currency="$(json 'd["currency"]')"

call GET /backoffice/v1/merchants "$backoffice_key"
expect 200 "back office lists merchants and terminals"
cp "$body" "$work/merchants"
# T1: a free portal terminal (without auto-login if possible); T2: another free terminal of the same
# merchant open to tokens (auto-login if possible); T3: any other free terminal open to tokens.
read -r merchant_id api_key t1 t1_auto t2 t2_auto t3 <<<"$(python3 - "$data/merchants.json" "$work/merchants" "$region" <<'EOF'
import json, sys
fixtures = json.load(open(sys.argv[1]))["regions"][sys.argv[3]]
listed = json.load(open(sys.argv[2]))
taken = {t["terminalId"] for m in listed["merchants"] for t in m["terminals"] if t.get("registered")}
allows = lambda t, o: o in (t.get("registerOptions") or ["portal", "registrationCode"])
free = lambda t: t["id"] not in taken
for m in fixtures["merchants"]:
    portal = sorted([t for t in m["terminals"] if free(t) and allows(t, "portal")], key=lambda t: t["autoLogin"])
    for t1 in portal:
        tokens = sorted([t for t in m["terminals"] if free(t) and allows(t, "registrationCode") and t["id"] != t1["id"]],
                        key=lambda t: not t["autoLogin"])
        if not tokens:
            continue
        t2 = tokens[0]
        rest = [t for mm in fixtures["merchants"] for t in mm["terminals"]
                if free(t) and allows(t, "registrationCode") and t["id"] not in (t1["id"], t2["id"])]
        if rest:
            b = lambda v: "true" if v else "false"
            print(m["id"], m["apiKey"], t1["id"], b(t1["autoLogin"]), t2["id"], b(t2["autoLogin"]), rest[0]["id"])
            sys.exit(0)
print("")
EOF
)"
[ -n "${t3:-}" ] || { echo "walk.sh: $region has not enough free terminals (reset it: curl -X POST $base/_sandbox/reset)" >&2; exit 1; }
echo "     merchant $merchant_id: portal → $t1 (autoLogin $t1_auto), merchant token → $t2 (autoLogin $t2_auto), e-mailed token → $t3"

# --- Portal activation: device A on T1 ---------------------------------------------------------
call POST /terminal/v1/support-number "" "$(body_json deviceId "$device_a")"
expect 200 "support number of device A"
check 'len(d["supportNumber"]) == 11 and d["supportNumber"].startswith("SN-")' "support number SN- + 8 digits"

call POST /terminal/v1/registrations "" "$(body_json deviceId "$device_a" deviceModel iPhone15,2 osVersion 18.1)"
expect 201 "portal: device A begins registration"
challenge="$(json 'd["challengeCode"]')"
typed="$(echo "$challenge" | tr -d '-' | tr 'A-Z' 'a-z')"
call POST /backoffice/v1/challenges/confirm "$backoffice_key" "$(body_json challengeCode "$typed" terminalId "$t1")"
expect 200 "portal: back office confirms $typed for $t1"
check "d['terminalId'] == '$t1'" "confirmed for $t1"
code="$(json 'd["backofficeCode"]')"
call POST /terminal/v1/registrations/verify-code "" "$(body_json code "$code")"
expect 200 "portal: verify back-office code $code"
check 'd["valid"] is True' "the back-office code is valid"
call POST /terminal/v1/registrations/complete "" "$(body_json deviceId "$device_a" backofficeCode "$code" pin "$pin")"
expect 200 "portal: device A completes with a PIN"
check "d['terminalId'] == '$t1'" "registered on $t1"
secret_a="$(json 'd["deviceSecret"]')"
cred_a="$(body_json deviceId "$device_a" deviceSecret "$secret_a")"

call GET "/backoffice/v1/terminals/$t1" "$backoffice_key"
expect 200 "back office shows $t1"
check "d['registered'] is True and d['deviceId'] == '$device_a'" "$t1 holds device A"

# --- Token activation by the merchant API: device B on T2 ---------------------------------------
call POST /merchant/v1/registration-tokens "$api_key" "$(body_json terminalId "$t2")"
expect 201 "merchant API issues a token for $t2"
token_b="$(json 'd["registrationToken"]')"
check "d['qrPayload'] == 'taponmobile://register?environment=$region&token=$token_b'" "QR payload"
call POST /terminal/v1/token-registrations/verify "" "$(body_json registrationToken "$token_b")"
expect 200 "token: verify"
check 'd["valid"] is True' "the token is valid"
call POST /terminal/v1/token-registrations/begin "" "$(body_json registrationToken "$token_b" deviceId "$device_b" deviceModel iPhone14,5)"
expect 200 "token: device B begins"
check "d['terminalId'] == '$t2' and d['state'] == 'begun'" "begun on $t2"
call POST /terminal/v1/token-registrations/end "" "$(body_json registrationToken "$token_b" deviceId "$device_b" pin "$pin")"
expect 200 "token: device B ends"
secret_b="$(json 'd["deviceSecret"]')"

# --- Token by the back office, e-mailed: device C on T3 -----------------------------------------
email="walk-sh-$stamp@example.com"
call POST /backoffice/v1/registration-tokens "$backoffice_key" "$(body_json terminalId "$t3" email "$email")"
expect 201 "back office e-mails a token for $t3 to $email"
token_c="$(json 'd["registrationToken"]')"
check "d.get('emailedTo') == '$email'" "emailedTo"
call GET /backoffice/v1/mailbox "$backoffice_key"
expect 200 "mailbox"
check "d['messages'][0]['to'] == '$email' and '$token_c' in d['messages'][0]['body']" "the newest mail carries the token"
call POST /terminal/v1/token-registrations/verify "" "$(body_json registrationToken "$token_c")"
expect 200 "e-mailed token: verify"
call POST /terminal/v1/token-registrations/begin "" "$(body_json registrationToken "$token_c" deviceId "$device_c" deviceModel iPhone13,1)"
expect 200 "e-mailed token: device C begins"
call POST /terminal/v1/token-registrations/end "" "$(body_json registrationToken "$token_c" deviceId "$device_c" pin "$pin")"
expect 200 "e-mailed token: device C ends"
secret_c="$(json 'd["deviceSecret"]')"

# --- Login, terminal info, info-init ------------------------------------------------------------
if [ "$t1_auto" = "false" ]; then
    call POST /terminal/v1/sessions "" "$cred_a"
    expect 400 pin_required "login without PIN ($t1 has no auto-login)"
fi
login() { # login PIN → $session
    call POST /terminal/v1/sessions "" "$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["pin"]=sys.argv[2]; print(json.dumps(d))' "$cred_a" "$1")"
}
login "$pin"
expect 201 "login device A"
session="$(json 'd["sessionToken"]')"
call GET /terminal/v1/sessions/current "$session"
expect 200 "current session"
call GET /terminal/v1/terminal "$session"
expect 200 "terminal info"
check "d['terminalId'] == '$t1' and d['merchantId'] == '$merchant_id'" "terminal info names $t1 of $merchant_id"
check "d['currency']['code'] == '$currency'" "terminal currency is $currency"
call GET /terminal/v1/info-init "$session"
expect 200 "info-init"
check "d['isAutoLoginEnabled'] == $( [ "$t1_auto" = true ] && echo True || echo False )" "isAutoLoginEnabled"

# --- Session expiry on the host clock -----------------------------------------------------------
call POST /_sandbox/clock "" "{\"advanceSeconds\": $((session_length + 1))}"
expect 200 "move the clock $((session_length + 1)) s (session length $session_length s)"
call GET /terminal/v1/sessions/current "$session"
expect 401 session_expired "current session after expiry"
login "$pin"
expect 201 "login again"
session="$(json 'd["sessionToken"]')"

# --- Wrong PIN five times, unlock -----------------------------------------------------------------
for attempt in 1 2 3 4; do
    login "$wrong_pin"
    expect 401 invalid_pin "wrong PIN #$attempt"
done
login "$wrong_pin"
expect 423 secure_code_locked "wrong PIN #5 locks"
login "$pin"
expect 423 secure_code_locked "right PIN while locked"
call POST "/backoffice/v1/terminals/$t1/unlock" "$backoffice_key"
expect 204 "back office unlocks $t1"
login "$pin"
expect 201 "login after unlock"
session="$(json 'd["sessionToken"]')"

# --- Secret code ------------------------------------------------------------------------------------
call PUT /terminal/v1/secret-code "$session" "$(body_json oldSecretCode "$pin" newSecretCode "$new_pin")"
expect 204 "update secret code"
login "$pin"
expect 401 invalid_pin "login with the old code"
login "$new_pin"
expect 201 "login with the new code"
session="$(json 'd["sessionToken"]')"

# --- Logout, unregister, register again ---------------------------------------------------------------
call DELETE /terminal/v1/sessions/current "$session"
expect 204 "logout"
call GET /terminal/v1/sessions/current "$session"
expect 401 session_expired "session after logout"
call POST /terminal/v1/unregister "" "$cred_a"
expect 204 "unregister device A"
call GET "/backoffice/v1/terminals/$t1" "$backoffice_key"
expect 200 "back office shows $t1"
check "d['registered'] is False" "$t1 is free"
login "$new_pin"
expect 401 terminal_unregistered "login of the unregistered device"

call POST /terminal/v1/registrations "" "$(body_json deviceId "$device_a" deviceModel iPhone15,2)"
expect 201 "register $t1 again: begin"
challenge="$(json 'd["challengeCode"]')"
call POST /backoffice/v1/challenges/confirm "$backoffice_key" "$(body_json challengeCode "$challenge" terminalId "$t1")"
expect 200 "register $t1 again: confirm"
code="$(json 'd["backofficeCode"]')"
call POST /terminal/v1/registrations/complete "" "$(body_json deviceId "$device_a" backofficeCode "$code" pin "$pin")"
expect 200 "register $t1 again: complete"
secret_a="$(json 'd["deviceSecret"]')"
cred_a="$(body_json deviceId "$device_a" deviceSecret "$secret_a")"
login "$pin"
expect 201 "login after registering again"

# --- Leave the host as found ----------------------------------------------------------------------------
if [ "$keep" = 0 ]; then
    for cred in "$cred_a" "$(body_json deviceId "$device_b" deviceSecret "$secret_b")" "$(body_json deviceId "$device_c" deviceSecret "$secret_c")"; do
        call POST /terminal/v1/unregister "" "$cred"
        expect 204 "clean up: unregister $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["deviceId"])' "$cred")"
    done
fi
echo "Walk on $region: all $step_no steps answered as the contract says."
