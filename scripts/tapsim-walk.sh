#!/usr/bin/env bash
# Walks a whole card journey with `tapsim --json` (the client SDK over the simulated reader)
# against a running `sandbox up`, on each region given (EU and MBANK by default):
#
#   quick device: register quick (challenge confirmed through the back office), login, prepare,
#                 pay, pay again, refund the first, reverse the second, history, count, statistics;
#   token device: a registration token issued by the back office (POST /backoffice/v1/registration-tokens),
#                 register token, login, and the same payments;
#   then both devices unregister (so the walk can run again; --keep leaves them registered).
#
# Prints each step; stops with exit status 1 at the first unexpected answer, showing it.
# Needs tapsim (--tapsim, else on the PATH, else .build/release/tapsim from 'make run', else
# .build/debug/tapsim), curl and python3.
#
#   scripts/tapsim-walk.sh [--env EU --env MBANK] [--endpoints .sandbox/endpoints.json]
#                          [--sandbox-data sandbox-data] [--tapsim PATH] [--keep]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
regions=()
endpoints=""
data="$root/sandbox-data"
tapsim="${TAPSIM:-}"
keep=0

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --env) regions+=("${2:?--env needs a region id}"); shift 2 ;;
        --endpoints) endpoints="${2:?--endpoints needs a file}"; shift 2 ;;
        --sandbox-data) data="${2:?--sandbox-data needs a folder}"; shift 2 ;;
        --tapsim) tapsim="${2:?--tapsim needs a path}"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "tapsim-walk.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
[ ${#regions[@]} -gt 0 ] || regions=(EU MBANK)
if [ -z "$endpoints" ]; then
    endpoints=".sandbox/endpoints.json"
    [ -f "$endpoints" ] || endpoints="$root/.sandbox/endpoints.json"
fi
if [ -z "$tapsim" ]; then
    if command -v tapsim >/dev/null; then
        tapsim="$(command -v tapsim)"
    elif [ -x "$root/.build/release/tapsim" ]; then
        tapsim="$root/.build/release/tapsim"   # what 'make run' builds
    else
        tapsim="$root/.build/debug/tapsim"
    fi
fi
for tool in curl python3; do
    command -v "$tool" >/dev/null || { echo "tapsim-walk.sh: $tool is required" >&2; exit 2; }
done
[ -x "$tapsim" ] || { echo "tapsim-walk.sh: no tapsim at $tapsim; run 'make run' (or 'swift build -c release') or pass --tapsim PATH" >&2; exit 2; }
[ -f "$endpoints" ] || { echo "tapsim-walk.sh: no $endpoints; start 'sandbox up' (make run) or pass --endpoints FILE" >&2; exit 2; }
[ -f "$data/merchants.json" ] || { echo "tapsim-walk.sh: no $data/merchants.json" >&2; exit 2; }

work="$(mktemp -d)"
registered=()   # "REGION DEVICE-DIR" of every device this walk registered
# On any exit: unregister what the walk registered (so it can run again), unless --keep.
cleanup() {
    if [ "$keep" = 0 ]; then
        for entry in "${registered[@]}"; do
            "$tapsim" --json --env "${entry%% *}" --device "${entry#* }" --endpoints "$endpoints" unregister >/dev/null 2>&1 || true
        done
    fi
    rm -rf "$work"
}
trap cleanup EXIT
out="$work/out"
err="$work/err"
step_no=0
last_command=""
rc=0

# verdict FILE [check COND WHAT | get VAR EXPR]…: one Python run over the JSON answer `d` in FILE.
# Prints "FAIL<TAB>why" for the first broken rule, or "GET<TAB>VAR<TAB>value" per extraction.
verdict() {
    python3 -S - "$@" <<'PY'
import json, sys
args = sys.argv[1:]
try:
    text = open(args[0]).read()
    d = json.loads(text)
except Exception:
    d = None
if not isinstance(d, dict) or len(text.strip().splitlines()) != 1:
    print("FAIL\tstdout is not exactly one JSON object on one line"); sys.exit()
if not d.get("command"):
    print("FAIL\tthe JSON object names no command"); sys.exit()
rules = args[1:]
for kind, a, b in zip(rules[0::3], rules[1::3], rules[2::3]):
    try:
        value = eval(b if kind == "get" else a, {"d": d})
    except Exception as error:
        value = None
    if kind == "check" and value is not True:
        print("FAIL\t%s (%s)" % (b, a)); sys.exit()
    if kind == "get":
        print("GET\t%s\t%s" % (a, "" if value is None else value if isinstance(value, str) else json.dumps(value)))
PY
}

fail() {
    echo "  FAILED: $1" >&2
    echo "  command: $last_command" >&2
    echo "  exit:    $rc" >&2
    echo "  stdout:  $(head -c 1500 "$out" 2>/dev/null)" >&2
    [ -s "$err" ] && echo "  stderr:  $(head -c 800 "$err")" >&2
    exit 1
}

# step TITLE EXPECTED-EXIT [check COND WHAT | get VAR EXPR]… -- TAPSIM-ARGUMENTS…
# Runs `tapsim --json` on the current device; checks the exit status, that exactly one JSON object
# came out, and each condition over it (`d`); sets each VAR to its expression's value.
step() {
    local title="$1" want="$2" rules=() line kind name value
    shift 2
    while [ "$1" != "--" ]; do rules+=("$1"); shift; done
    shift
    last_command="tapsim --env $region --device $device $*"
    rc=0
    "$tapsim" --json --env "$region" --device "$device" --endpoints "$endpoints" --sandbox-data "$data" "$@" \
        >"$out" 2>"$err" || rc=$?
    step_no=$((step_no + 1))
    printf '%3d. %-8s %-58s exit %s\n' "$step_no" "$region" "$title" "$rc"
    [ "$rc" = "$want" ] || fail "expected exit status $want"
    while IFS=$'\t' read -r kind name value; do
        case "$kind" in
            FAIL) fail "$name" ;;
            GET) printf -v "$name" '%s' "$value" ;;
        esac
    done <<<"$(verdict "$out" "${rules[@]}")"
}

# backoffice METHOD PATH [JSON]: the region's back-office API with its key; answer in $out.
backoffice() {
    local method="$1" path="$2" payload="${3:-}"
    local args=(-sS -o "$out" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $backoffice_key" --max-time 15)
    # Every write declares JSON, body or not: the sandbox refuses one that does not.
    [ "$method" = GET ] || args+=(-H 'Content-Type: application/json')
    [ -n "$payload" ] && args+=(--data-binary "$payload")
    last_command="curl -X $method $base$path${payload:+ $payload}"
    rc="$(curl "${args[@]}" "$base$path" 2>"$err")" || rc="000"
}

# payments: the journey every device walks once registered and logged in.
payments() {
    step "prepare (reader at 100 %)" 0 \
        check 'd["prepared"] is True and d["percentage"] == 100' "the reader is prepared" -- prepare
    step "pay $amount_one $currency ($card_one)" 0 \
        check 'd["transaction"]["transactionStatus"] == "CLEARED"' "the first sale is CLEARED" \
        get first 'd["transaction"]["transactionId"]' \
        -- pay --amount "$amount_one" --currency "$currency" --card "$card_one"
    step "pay $amount_two $currency again ($card_two)" 0 \
        check 'd["transaction"]["transactionStatus"] == "CLEARED"' "the second sale is CLEARED" \
        check 'd["transaction"]["transactionId"] != "'"$first"'"' "a second transaction" \
        get second 'd["transaction"]["transactionId"]' \
        -- pay --amount "$amount_two" --currency "$currency" --card "$card_two"
    step "refund the first ($amount_one, $card_one)" 0 \
        check 'd["transaction"]["transactionStatus"] == "CLEARED"' "the refund is CLEARED" \
        check 'd["transaction"]["transactionType"] == "REFUND"' "the refund is a REFUND" \
        check 'd["transaction"]["refundedTransactionId"] == "'"$first"'"' "the refund names the first sale" \
        -- refund --transaction "$first" --amount "$amount_one" --currency "$currency" --card "$card_one"
    step "reverse the second" 0 \
        check 'd["reversed"] is True' "the reversal succeeded" \
        check 'd["transaction"]["transactionStatus"] == "CANCELLED"' "the reversed sale is CANCELLED" \
        -- reverse --transaction "$second"
    step "details of the first" 0 \
        check 'd["transaction"]["transactionStatus"] == "REFUNDED"' "the refunded sale is REFUNDED" \
        -- details --transaction "$first"
    step "history" 0 \
        check 'len(d["history"]["items"]) >= 3' "three transactions or more in the history" \
        check '{"'"$first"'", "'"$second"'"} <= {i["transactionId"] for i in d["history"]["items"]}' "both sales in the history" \
        -- history
    step "count" 0 check 'd["count"] >= 3' "the count agrees" -- count
    step "statistics (daily)" 0 \
        check 'isinstance(d["statistics"], list) and len(d["statistics"]) > 0' "daily statistics" -- stats --type daily
    step "statistics (brand)" 0 \
        check 'isinstance(d["statistics"], list) and len(d["statistics"]) > 0' "per-brand statistics" -- stats --type brand
}

echo "tapsim walk with $tapsim, endpoints $endpoints"
for region in "${regions[@]}"; do
    base="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["environments"].get(sys.argv[2], ""))' "$endpoints" "$region")"
    [ -n "$base" ] || { echo "tapsim-walk.sh: $endpoints names no host for region $region" >&2; exit 2; }
    backoffice_key="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["regions"][sys.argv[2]]["backOfficeKey"])' "$data/merchants.json" "$region")"
    currency="$(curl -sS --max-time 10 "$base/v1/environment" | python3 -c 'import json,sys; print(json.load(sys.stdin)["currency"])')" \
        || { echo "tapsim-walk.sh: $base does not answer: is 'sandbox up' running?" >&2; exit 1; }
    # Amounts outside the magic range 42.00–42.99, and two cards issued in the
    # region's country (a foreign card would get a DCC offer on regions with DCC).
    amount_one=1200
    amount_two=850
    read -r card_one card_two <<<"$(python3 - "$data" "$region" <<'PY'
import json, sys
country = next(r["country"] for r in json.load(open(sys.argv[1] + "/environments.json"))["regions"] if r["id"] == sys.argv[2])
cards = [c for c in json.load(open(sys.argv[1] + "/cards.json"))["cards"]
         if c["country"] == country and c["cvm"] == "none" and not c["flags"]]
names = [c["name"] for c in cards] + ["visa", "mc"]
print(names[0], next(n for n in names[1:] if n != names[0]))
PY
)"

    # Two free terminals that allow refunds and reversals: one open to the portal, one to tokens.
    backoffice GET /backoffice/v1/merchants
    [ "$rc" = "200" ] || fail "GET /backoffice/v1/merchants answered $rc"
    read -r quick_terminal token_terminal <<<"$(python3 - "$data/merchants.json" "$out" "$region" <<'EOF'
import json, sys
fixtures = json.load(open(sys.argv[1]))["regions"][sys.argv[3]]
listed = json.load(open(sys.argv[2]))
taken = {t["terminalId"] for m in listed["merchants"] for t in m["terminals"] if t.get("registered")}
usable = [t for m in fixtures["merchants"] for t in m["terminals"]
          if t["id"] not in taken and t.get("refundAvailable") and t.get("reversalAvailable")]
allows = lambda t, o: o in (t.get("registerOptions") or ["portal", "registrationCode"])
for q in [t for t in usable if allows(t, "portal")]:
    rest = [t for t in usable if t["id"] != q["id"] and allows(t, "registrationCode")]
    if rest:
        print(q["id"], rest[0]["id"])
        break
EOF
)"
    [ -n "${token_terminal:-}" ] || { echo "tapsim-walk.sh: $region has no two free terminals with refunds and reversals (unregister some)" >&2; exit 1; }
    echo "== $region at $base ($currency, cards $card_one and $card_two): quick on $quick_terminal, token on $token_terminal"

    # --- Device 1: portal challenge confirmed by the back office -------------------------------
    device="$work/$region-quick"
    step "status of a new device" 0 check 'd["registered"] is False' "a new device is not registered" -- status
    registered+=("$region $device")
    step "register quick on $quick_terminal" 0 \
        check 'd["registered"] is True and d["terminalId"] == "'"$quick_terminal"'"' "registered on the terminal asked for" \
        check 'd["backofficeCode"].startswith("'"$region"'-")' "a back-office code of the region" \
        -- register quick --pin 2468 --terminal "$quick_terminal"
    step "pay before login (session error)" 13 \
        check 'd["error"]["category"] == "session"' "a session error" -- pay --amount "$amount_one" --currency "$currency"
    step "login" 0 \
        check 'd["loggedIn"] is True and d["terminalId"] == "'"$quick_terminal"'"' "logged in on the terminal" -- login --pin 2468
    step "terminal-info" 0 \
        check 'd["terminal"]["terminalId"] == "'"$quick_terminal"'"' "terminal info of the terminal" -- terminal-info
    payments
    step "pay 4251 (magic 42.51: insufficient funds)" 0 \
        check 'd["transaction"]["transactionStatus"] == "DECLINED"' "a decline is an answer, not an error" \
        check 'd["transaction"]["responseCode"] == "51"' "response code 51" \
        -- pay --amount 4251 --currency "$currency" --card "$card_one"

    # --- Device 2: back-office registration token -----------------------------------------------
    device="$work/$region-token"
    backoffice POST /backoffice/v1/registration-tokens "{\"terminalId\":\"$token_terminal\"}"
    step_no=$((step_no + 1))
    printf '%3d. %-8s %-58s HTTP %s\n' "$step_no" "$region" "back office issues a token for $token_terminal" "$rc"
    [ "$rc" = "201" ] || fail "expected 201"
    token="$(python3 -S -c 'import json,sys; print(json.load(open(sys.argv[1]))["registrationToken"])' "$out" 2>/dev/null)" \
        || fail "no registrationToken"
    registered+=("$region $device")
    step "register token" 0 \
        check 'd["registered"] is True and d["terminalId"] == "'"$token_terminal"'"' "registered on the token's terminal" \
        -- register token --token "$token" --pin 1357
    step "register token again (token used)" 12 \
        check 'd["error"]["category"] == "registration"' "a registration error" -- register token --token "$token" --pin 1357
    step "login" 0 check 'd["loggedIn"] is True' "logged in" -- login --pin 1357
    payments

    # --- Leave the terminals free --------------------------------------------------------------
    if [ "$keep" = 0 ]; then
        registered=()
        for device in "$work/$region-quick" "$work/$region-token"; do
            step "unregister $(basename "$device")" 0 check 'd["unregistered"] is True' "unregistered" -- unregister
        done
        step "status after unregister" 0 check 'd["registered"] is False' "no longer registered" -- status
    fi
done
echo "tapsim walk passed: $step_no steps on ${regions[*]}"
