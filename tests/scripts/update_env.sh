# update_env.sh - sourced by the `ec2fit update` script tests (test_update.sh,
# test_update_cache.sh, test_update_creds.sh): an environment with no proxy
# and none of the caller's AWS_* or EC2FIT_* variables, a fresh $WORK with
# its own HOME and cache, fail(), and the fake AWS server
# (tests/tools/fake_aws.py on 127.0.0.1, which recomputes every SigV4
# signature).
#   start_server SCENARIO [fake_aws.py options...]   sets SERVER_PID, PORT, URL
#                                                    and exports
#                                                    AWS_ENDPOINT_URL_SAVINGSPLANS
#   stop_server                                      (also run on EXIT)
# FAKE_AWS_OPTS, an array set before start_server, adds options to every
# start (a later option overrides an earlier one, as argparse does).
: "${EC2FIT:?}" "${SRC_DIR:?}" "${FIXTURES:?}" "${WORK:?}"

export PYTHONDONTWRITEBYTECODE=1
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
for v in $(env | sed -n 's/^\(AWS_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
unset EC2FIT_CATALOG EC2FIT_NOW EC2FIT_HTTP_MAX_BYTES EC2FIT_STALE_DAYS

rm -rf "$WORK"
mkdir -p "$WORK/home"
export HOME="$WORK/home"
export XDG_CACHE_HOME="$WORK/cache"
CACHE="$XDG_CACHE_HOME/ec2fit"
BASE="$FIXTURES/pricing/base_catalog.json"
[ -n "${FAKE_AWS_OPTS+x}" ] || FAKE_AWS_OPTS=()
SERVER_PID=
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

start_server() { # scenario [fake_aws options...]
    local scenario=$1 i
    shift
    stop_server
    rm -f "$WORK/port" "$WORK/log"
    python3 "$SRC_DIR/tests/tools/fake_aws.py" --port-file "$WORK/port" \
        --data "$FIXTURES/pricing" --scenario "$scenario" --log "$WORK/log" \
        --lifetime 20 "${FAKE_AWS_OPTS[@]}" "$@" 2>>"$WORK/server.err" &
    SERVER_PID=$!
    for i in $(seq 200); do
        [ -s "$WORK/port" ] && break
        sleep 0.05
    done
    PORT=$(cat "$WORK/port") || { echo "server did not start"; exit 1; }
    URL="http://127.0.0.1:$PORT"
    # the Savings Plans API has no flag (as in the AWS SDKs): without this,
    # an update with credentials would call savingsplans.amazonaws.com
    export AWS_ENDPOINT_URL_SAVINGSPLANS="$URL"
}

stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
        SERVER_PID=
    fi
}
trap stop_server EXIT
