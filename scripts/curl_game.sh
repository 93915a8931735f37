#!/usr/bin/env bash
# Play a whole game through the REST API with nothing but curl and python3's json module,
# as the README's walk-through does by hand. Each player, in turn, takes one of its
# legal_actions (calling whenever it may, so rounds stay short) until the game is over.
#   scripts/curl_game.sh [API_URL] [RULESET] [SEATS]
set -euo pipefail
API=${1:-http://127.0.0.1:8000/api}
RULESET=${2:-pablo}
SEATS=${3:-3}
run=$RANDOM
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
post() { curl -sf -X POST "$API/$1" -H 'Content-Type: application/json' ${3:+-H "Authorization: Token $3"} -d "$2"; }

tokens=()
for i in $(seq 0 $((SEATS - 1))); do
    user="player${run}x$i"
    tokens+=("$(post auth/register/ "{\"username\": \"$user\", \"password\": \"pw-$user-123\"}" | json 'd["token"]')")
done
GAME=$(post games/ "{\"ruleset\": \"$RULESET\", \"seats\": $SEATS}" "${tokens[0]}" | json 'd["id"]')
for i in $(seq 1 $((SEATS - 1))); do post "games/$GAME/join/" '{}' "${tokens[$i]}" >/dev/null; done
echo "game $GAME ($RULESET, $SEATS seats)"

pick='
import json, sys
acts = json.load(sys.stdin)["state"]["legal_actions"]
def concrete(a):
    a = dict(a)
    for name, values in a.pop("choices", {}).items():
        a[name] = values[0]
    return a
order = ["look", "call", "draw", "play", "discard", "skip", "peek", "spy", "swap", "replace", "end"]
acts = [a for a in acts if a["type"] != "throw"]
acts.sort(key=lambda a: order.index(a["type"]) if a["type"] in order else 99)
print(json.dumps(concrete(acts[0])) if acts else "")
'
steps=0
while true; do
    status=$(curl -sf "$API/games/$GAME/" -H "Authorization: Token ${tokens[0]}" | json 'd["status"]')
    [ "$status" = "active" ] || break
    acted=0
    for i in $(seq 0 $((SEATS - 1))); do
        action=$(curl -sf "$API/games/$GAME/" -H "Authorization: Token ${tokens[$i]}" | python3 -c "$pick")
        if [ -n "$action" ]; then
            post "games/$GAME/actions/" "$action" "${tokens[$i]}" >/dev/null
            acted=1; steps=$((steps + 1))
        fi
    done
    [ $acted = 1 ] || { echo "nobody can act" >&2; exit 1; }
done
curl -sf "$API/games/$GAME/" -H "Authorization: Token ${tokens[0]}" \
    | json '"status %s after %d events; totals %s; result %s" % (d["status"], d["version"], [p["score"] for p in d["players"]], d["state"]["result"])'
echo "$steps actions sent"
