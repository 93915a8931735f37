#!/usr/bin/env bash
# Play a whole game through the REST API with nothing but curl and python3's json module,
# as the README's walk-through does by hand:
#   scripts/curl_game.sh [API_URL] [RULESET] [SEATS] [OPTIONS_JSON]
#   e.g. scripts/curl_game.sh http://127.0.0.1:8000/api skipbo 2 '{"stock_size": 10}'
# It registers SEATS new players, creates the game, and then each player takes, whenever
# it may act, a random one of its state.legal_actions (filling a template's "choices" at
# random). To make games end: it calls with probability CALL_CHANCE (default 0.3) when it
# may (declining a call after one's turn just lets the next player draw), throws only now
# and then (THROW_CHANCE, default 0.05), and in skipbo plays a card whenever one fits, the
# stock first. It stops when the game is over and prints the result;
# the exit status is 0 only when the game finished with a result. SEED makes the choices
# repeatable (the deal is still the server's).
set -euo pipefail
API=${1:-http://127.0.0.1:8000/api}
RULESET=${2:-pablo}
SEATS=${3:-3}
OPTIONS=${4:-\{\}}
MAX_ACTIONS=${MAX_ACTIONS:-20000}
export CALL_CHANCE=${CALL_CHANCE:-0.3} THROW_CHANCE=${THROW_CHANCE:-0.05} SEED=${SEED:-}

# The interpreter itself: a version-manager shim (pyenv, asdf) costs ~0.1 s a call.
PY=$(python3 -c 'import sys; print(sys.executable)')
run="$(date +%s)$RANDOM"
json() { "$PY" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# request METHOD PATH TOKEN [BODY]: the answer's body, then its HTTP status on a line of its own.
request() {
    curl -s -X "$1" "$API/$2" -H 'Content-Type: application/json' \
        ${3:+-H "Authorization: Token $3"} ${4:+-d "$4"} -w '\n%{http_code}'
}
body() { printf '%s\n' "${1%$'\n'*}"; }
code() { printf '%s\n' "${1##*$'\n'}"; }
die() { echo "curl_game: $*" >&2; exit 1; }

tokens=()
for i in $(seq 0 $((SEATS - 1))); do
    user="p${run}s$i"
    answer=$(request POST auth/register/ "" "{\"username\": \"$user\", \"password\": \"pw-$user\"}")
    [ "$(code "$answer")" = 201 ] || die "register $user: $(body "$answer")"
    tokens+=("$(body "$answer" | json 'd["token"]')")
done
answer=$(request POST games/ "${tokens[0]}" \
    "{\"ruleset\": \"$RULESET\", \"seats\": $SEATS, \"options\": $OPTIONS}")
[ "$(code "$answer")" = 201 ] || die "create: $(body "$answer")"
GAME=$(body "$answer" | json 'd["id"]')
for i in $(seq 1 $((SEATS - 1))); do
    answer=$(request POST "games/$GAME/join/" "${tokens[$i]}" '{}')
    [ "$(code "$answer")" = 200 ] || die "join seat $i: $(body "$answer")"
done
echo "game $GAME ($RULESET, $SEATS seats)"

# Reads a game as one seat sees it (or an action's answer, which holds it) on stdin and
# prints three lines: the game's status, the seat on turn (or -), and one action body for
# that seat -- empty when it has nothing to do or lets a throw or a call pass.
pick='
import json, os, random, sys
game = json.load(sys.stdin)
game = game.get("game", game)
seed = os.environ["SEED"]
rng = random.Random(f"{seed}:{game['"'"'version'"'"']}:{game['"'"'you'"'"']}" if seed else None)
state = game["state"] or {}
acts = state.get("legal_actions", [])
turn = (state.get("turn") or {}).get("seat")

def concrete(a):
    a = dict(a)
    for name, values in a.pop("choices", {}).items():
        a[name] = rng.choice(values)
    return a

throws = [a for a in acts if a["type"] == "throw"]
calls = [a for a in acts if a["type"] == "call"]
rest = [a for a in acts if a["type"] not in ("throw", "call")]
plays = [a for a in rest if a["type"] == "play"]
choice = None
if throws and rng.random() < float(os.environ["THROW_CHANCE"]):
    choice = rng.choice(throws)
elif calls and rng.random() < float(os.environ["CALL_CHANCE"]):
    choice = calls[0]
elif plays:
    stock = [a for a in plays if a["from"] == "stock"]
    choice = rng.choice(stock or plays)
elif rest:
    choice = rng.choice(rest)
print(game["status"])
print("-" if turn is None else turn)
print(json.dumps(concrete(choice)) if choice else "")
'
# decide JSON: sets $status, $turn and $action from a game or an action's answer.
decide() {
    local out
    out=$("$PY" -c "$pick" <<<"$1") || die "cannot read: $1"
    { read -r status; read -r turn; read -r action || action=""; } <<<"$out"
}

actor=""      # the seat acting now, or empty: look for one
turn=-
actions=0
while :; do
    if [ -z "$actor" ]; then
        # Ask the seat on turn first (as the last answer said), then everybody.
        order=$(seq 0 $((SEATS - 1)))
        [ "$turn" = - ] || order="$turn $order"
        for i in $order; do
            answer=$(request GET "games/$GAME/" "${tokens[$i]}")
            [ "${answer##*$'\n'}" = 200 ] || die "read as seat $i: $answer"
            decide "${answer%$'\n'*}"
            [ "$status" = active ] || break 2
            if [ -n "$action" ]; then actor=$i; break; fi
        done
        [ -n "$actor" ] || die "nobody can act: ${answer%$'\n'*}"
    fi
    answer=$(request POST "games/$GAME/actions/" "${tokens[$actor]}" "$action")
    actions=$((actions + 1))
    [ $actions -le "$MAX_ACTIONS" ] || die "no end after $MAX_ACTIONS actions"
    case ${answer##*$'\n'} in
        201)
            decide "${answer%$'\n'*}"
            [ "$status" = active ] || break
            # The same seat goes on while it has something to do (draw, then discard ...).
            [ -n "$action" ] || actor=""
            ;;
        409)
            # Refused now (e.g. a deadline passed meanwhile): read the game again.
            echo "refused $action: ${answer%$'\n'*}" >&2
            actor=""
            turn=-
            ;;
        *) die "seat $actor sent $action: $answer" ;;
    esac
done

answer=$(request GET "games/$GAME/" "${tokens[0]}")
body "$answer" | json '"%s after %d events and %d actions%s; scores %s; result %s" % (
    d["status"], d["version"], '"$actions"',
    ", %d rounds" % len(d["state"]["rounds"]) if d["state"].get("rounds") else "",
    {p["username"]: p["score"] for p in d["players"]}, d["state"]["result"])'
# Success means: the game is over with a result.
[ "$(body "$answer" | json 'd["status"] == "finished" and d["state"]["result"] is not None')" = True ]
