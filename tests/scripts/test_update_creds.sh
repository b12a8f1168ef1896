#!/bin/bash
# test_update_creds.sh - `ec2fit update` with each provider of the AWS SDKs'
# default credential chain (docs/update.md "Credentials"), end to end
# against tests/tools/fake_aws.py on 127.0.0.1: the provider's endpoint
# (STS, IMDSv2, container, SSO portal) or credential_process hands out
# temporary credentials, and the Pricing API pages must then verify with
# them (SigV4 recomputed by the server, session token included) and
# refresh the prices into the cache. Each failure path asserts the exit
# code, the exact one-line message, that no secret value appears on stderr,
# and that the previous cache is byte-identical. All offline.
set -u
. "${SRC_DIR:?}/tests/scripts/update_env.sh"
mkdir -p "$WORK/home/.aws"
# what the fake hands out, and what it asks for (fake_aws.py defaults)
AK=AKIDTESTEXAMPLE
SK='test/secret+KEY'
TOKEN='FwoGZXIvYXdzEBsession/token+VALUE'
WEB_TOKEN=oidc-jwt-secret-value
SRC_AK=AKIDSOURCEEXAMPLE
SRC_SK='source/secret+KEY'
IMDS_TOKEN=imds-session-secret
ECS_TOKEN=ecs-auth-secret
SSO_TOKEN=sso-access-secret
SECRETS=("$SK" "$TOKEN" "$WEB_TOKEN" "$SRC_SK" "$IMDS_TOKEN" "$ECS_TOKEN" "$SSO_TOKEN")
ROLE=arn:aws:iam::123456789012:role/ci-pricing
FAKE_AWS_OPTS=(--lifetime 60 --token "$TOKEN")

# runs `ec2fit update` in a clean environment plus the given VAR=value
# words; IMDS is disabled unless a case sets its endpoint; sets RC
update() {
    : >"$WORK/log"
    env -i PATH="$PATH" HOME="$HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME" \
        NO_PROXY=127.0.0.1 AWS_EC2_METADATA_DISABLED=true \
        AWS_ENDPOINT_URL_SAVINGSPLANS="$URL" "$@" \
        "$EC2FIT" update --catalog "$BASE" --endpoint-url "$URL" \
        --spot-advisor-url "$URL/spot-advisor-data.json" --verbose \
        >"$WORK/out" 2>"$WORK/err"
    RC=$?
}

no_secret() { # name
    local s
    for s in "${SECRETS[@]}"; do
        if grep -qF -- "$s" "$WORK/err" "$WORK/out"; then
            fail "$1: a secret value is printed"
        fi
    done
}

price() { # type region field
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = [x for x in d["instances"] if x["type"] == sys.argv[2]][0]
print(i["prices"][sys.argv[3]][sys.argv[4]])' "$CACHE/catalog.json" "$@"
}

# name source-regex provider-log-regex: exit 0, the provider was used, the
# five GetProducts pages verified with the issued credentials, the cache
# has the refreshed price
expect_ok() {
    [ "$RC" = 0 ] || fail "$1: exit $RC: $(grep -v '^ec2fit: update: [<>]' "$WORK/err")"
    grep -Eqx -- "ec2fit: update: credentials: $2" "$WORK/err" ||
        fail "$1: source line: $(grep 'credentials' "$WORK/err")"
    grep -Eq -- "$3" "$WORK/log" || fail "$1: provider not called: $(cat "$WORK/log")"
    [ "$(grep -c '^POST / .* sig=ok target=AWSPriceListService.GetProducts' "$WORK/log")" = 5 ] ||
        fail "$1: expected 5 GetProducts pages signed with the issued credentials: $(cat "$WORK/log")"
    [ "$(price m5.large us-east-1 ondemand_usd_per_hour)" = 0.097 ] ||
        fail "$1: m5.large price not refreshed"
    grep -qx "ec2fit: update: wrote $CACHE/catalog.json (prices as of [0-9-]*)" "$WORK/err" ||
        fail "$1: no cache written"
    no_secret "$1"
    snapshot
}

snapshot() { rm -rf "$WORK/snap" && cp -a "$CACHE" "$WORK/snap"; }

# name rc exact-stderr-regex: one line, no secret, cache as it was
expect_fail() {
    [ "$RC" = "$2" ] || fail "$1: exit $RC, expected $2"
    grep -v '^ec2fit: update: [<>]' "$WORK/err" | grep -v '^ec2fit: update: retrying' >"$WORK/err1"
    [ "$(wc -l <"$WORK/err1")" = 1 ] || fail "$1: stderr is not one line: $(cat "$WORK/err1")"
    grep -Eqx -- "$3" "$WORK/err1" || fail "$1: stderr: $(cat "$WORK/err1")"
    grep -q '^POST / ' "$WORK/log" && fail "$1: GetProducts was called"
    no_secret "$1"
    cmp -s "$CACHE/catalog.json" "$WORK/snap/catalog.json" ||
        fail "$1: catalog.json changed"
}

echo "$WEB_TOKEN" >"$WORK/web_token"
WEB=(AWS_WEB_IDENTITY_TOKEN_FILE="$WORK/web_token" AWS_ROLE_ARN="$ROLE")

# ---- 1. web identity (GitHub/GitLab OIDC, EKS IRSA) --------------------------
start_server ok
update "${WEB[@]}" AWS_ROLE_SESSION_NAME=ci-run-42 AWS_ENDPOINT_URL_STS="$URL/"
expect_ok web-identity "web identity \($ROLE\)" \
    "^STS AssumeRoleWithWebIdentity role=$ROLE session=ci-run-42 ok=yes$"
# the environment's static keys come first
update "${WEB[@]}" AWS_ENDPOINT_URL_STS="$URL/" AWS_ACCESS_KEY_ID=$AK \
    AWS_SECRET_ACCESS_KEY="$SK"
grep -qx 'ec2fit: update: credentials: environment' "$WORK/err" ||
    fail "env before web identity: $(grep credentials "$WORK/err")"
# without AWS_ROLE_SESSION_NAME the session is named ec2fit-<time>
update "${WEB[@]}" AWS_ENDPOINT_URL_STS="$URL/"
grep -Eq 'session=ec2fit-[0-9]+ ok=yes' "$WORK/log" || fail "web identity: default session name"
snapshot

update AWS_WEB_IDENTITY_TOKEN_FILE="$WORK/no_such_token" AWS_ROLE_ARN="$ROLE" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-missing-file 1 "ec2fit: update: credentials: web identity: AWS_WEB_IDENTITY_TOKEN_FILE: $WORK/no_such_token: No such file or directory"
update AWS_WEB_IDENTITY_TOKEN_FILE="$WORK/web_token" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-no-role 2 "ec2fit: update: credentials: AWS_WEB_IDENTITY_TOKEN_FILE is set but AWS_ROLE_ARN is not"
echo wrong-token >"$WORK/bad_token"
update AWS_WEB_IDENTITY_TOKEN_FILE="$WORK/bad_token" AWS_ROLE_ARN="$ROLE" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-refused 1 "ec2fit: update: credentials: web identity: STS AssumeRoleWithWebIdentity: HTTP 403: AccessDenied: request refused by fake_aws"
start_server cred403
update "${WEB[@]}" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-403 1 "ec2fit: update: credentials: web identity: STS AssumeRoleWithWebIdentity: HTTP 403: AccessDenied: Not authorized to perform sts:AssumeRole"
start_server credbad
update "${WEB[@]}" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-badxml 1 "ec2fit: update: credentials: web identity: STS AssumeRoleWithWebIdentity: the answer has no <Credentials> element"
start_server credexpired
update "${WEB[@]}" AWS_ENDPOINT_URL_STS="$URL/"
expect_fail web-expired 1 "ec2fit: update: credentials: web identity: STS AssumeRoleWithWebIdentity: the credentials expired at 2020-01-01T00:00:00Z"

# ---- 2. IMDSv2 (instance role) -----------------------------------------------
IMDS=(AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT)
start_server ok
update "${IMDS[0]}" "${IMDS[1]}=$URL"
expect_ok imds "instance role ec2fit-test-role \(IMDSv2\)" '^PUT /latest/api/token ttl=21600$'
grep -qx 'IMDS GET /latest/meta-data/iam/security-credentials/ec2fit-test-role token=ok' "$WORK/log" ||
    fail "imds: role credentials not fetched with the session token"
start_server cred403
update "${IMDS[0]}" "${IMDS[1]}=$URL"
expect_fail imds-403 1 "ec2fit: update: credentials: instance role: IMDSv2 GET /latest/meta-data/iam/security-credentials/: HTTP 403: forbidden"
start_server credbad
update "${IMDS[0]}" "${IMDS[1]}=$URL"
expect_fail imds-badjson 1 "ec2fit: update: credentials: instance role: IMDSv2 GET /latest/meta-data/iam/security-credentials/ec2fit-test-role: the answer is not a JSON object"
start_server credexpired
update "${IMDS[0]}" "${IMDS[1]}=$URL"
expect_fail imds-expired 1 "ec2fit: update: credentials: instance role: IMDSv2 GET /latest/meta-data/iam/security-credentials/ec2fit-test-role: the credentials expired at 2020-01-01T00:00:00Z"
# no metadata service: not an error, the on-demand refresh is skipped
start_server ok
update "${IMDS[0]}" "${IMDS[1]}=http://127.0.0.1:1"
[ "$RC" = 0 ] || fail "imds-absent: exit $RC"
grep -Eqx "ec2fit: warning: update: skipped on-demand prices \(Pricing API\): no AWS credentials: AWS_ACCESS_KEY_ID is not set and profile 'default' is not in $HOME/.aws/credentials or $HOME/.aws/config; no instance role \(IMDSv2 PUT http://127.0.0.1:1/latest/api/token: .*\)" "$WORK/err" ||
    fail "imds-absent: $(grep warning "$WORK/err")"
grep -q '^POST / ' "$WORK/log" && fail "imds-absent: GetProducts was called"
snapshot
# plain http elsewhere than loopback and the link-local hosts is refused
update "${IMDS[0]}" "${IMDS[1]}=http://metadata.example/"
expect_fail imds-plain-http 2 "ec2fit: update: credentials: instance role: IMDSv2 token \(PUT /latest/api/token\): http://metadata.example/latest/api/token: plain http is only allowed to 127.0.0.1, localhost, \[::1\] and 169.254.169.254, \[fd00:ec2::254\], 169.254.170.2, 169.254.170.23, \[fd00:ec2::23\]; use https"

# ---- 3. profile role_arn + source_profile (STS AssumeRole, SigV4) -------------
cat >"$HOME/.aws/credentials" <<CRED
[base]
aws_access_key_id = $SRC_AK
aws_secret_access_key = $SRC_SK
[wrongbase]
aws_access_key_id = $SRC_AK
aws_secret_access_key = not-the-secret
CRED
cat >"$HOME/.aws/config" <<CONF
[profile ci]
role_arn = $ROLE
source_profile = base
external_id = ext-7
role_session_name = pricing-refresh
[profile chained]
role_arn = $ROLE
source_profile = ci
[profile badsig]
role_arn = $ROLE
source_profile = wrongbase
[profile orphan]
role_arn = $ROLE
source_profile = nosuch
[profile loop]
role_arn = $ROLE
source_profile = loop2
[profile loop2]
role_arn = $ROLE
source_profile = loop
[profile ec2]
role_arn = $ROLE
credential_source = Ec2InstanceMetadata
[profile proc]
credential_process = "$WORK/cred proc.sh" --mode 'two words' ok
[profile procfail]
credential_process = $WORK/cred_proc_fail.sh
[profile procv2]
credential_process = $WORK/cred_proc.sh --version 2
[profile procold]
credential_process = $WORK/cred_proc.sh --expired
[profile procmissing]
credential_process = $WORK/no_such_program
[profile sso]
sso_session = corp
sso_account_id = 123456789012
sso_role_name = PricingRead
[profile ssolegacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = us-east-1
sso_account_id = 123456789012
sso_role_name = PricingRead
[profile ssonorole]
sso_session = corp
sso_account_id = 123456789012
[sso-session corp]
sso_region = us-east-1
sso_start_url = https://corp.awsapps.com/start
sso_registration_scopes = sso:account:access
CONF
STS=AWS_ENDPOINT_URL_STS="$URL/"
update AWS_PROFILE=ci "$STS"
expect_ok assume-role "profile ci: role $ROLE \(source_profile base\)" \
    "^STS AssumeRole role=$ROLE session=pricing-refresh external=ext-7 sig=ok$"
update AWS_PROFILE=chained "$STS"
expect_ok assume-role-chained "profile chained: role $ROLE \(source_profile ci\)" \
    "^STS AssumeRole role=$ROLE session=ec2fit-[0-9]+ external=- sig=ok$"
[ "$(grep -c '^STS AssumeRole ' "$WORK/log")" = 2 ] || fail "chained: two AssumeRole calls expected"
update AWS_PROFILE=badsig "$STS"
expect_fail assume-role-badsig 1 "ec2fit: update: credentials: profile 'badsig': STS AssumeRole: HTTP 403: AccessDenied: request refused by fake_aws"
update AWS_PROFILE=orphan "$STS"
expect_fail assume-role-orphan 2 "ec2fit: update: credentials: profile 'orphan': source_profile 'nosuch' could not be found"
update AWS_PROFILE=loop "$STS"
expect_fail assume-role-loop 2 "ec2fit: update: credentials: profile 'loop[2]?': source_profile chain longer than 5 profiles \(a cycle\?\)"
update AWS_PROFILE=ec2 "$STS"
expect_fail assume-role-credsource 2 "ec2fit: update: credentials: profile 'ec2': role_arn needs source_profile \(credential_source is not supported\)"
start_server cred403
update AWS_PROFILE=ci AWS_ENDPOINT_URL_STS="$URL/"
expect_fail assume-role-403 1 "ec2fit: update: credentials: profile 'ci': STS AssumeRole: HTTP 403: AccessDenied: Not authorized to perform sts:AssumeRole"
start_server credbad
update AWS_PROFILE=ci AWS_ENDPOINT_URL_STS="$URL/"
expect_fail assume-role-badxml 1 "ec2fit: update: credentials: profile 'ci': STS AssumeRole: the answer has no <Credentials> element"

# ---- 4. credential_process (no shell; JSON Version 1) -------------------------
EXP_FUTURE=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
cat >"$WORK/cred proc.sh" <<PROC
#!/bin/sh
printf '%s\n' "\$@" >"$WORK/proc_args"
printf '{"Version": 1, "AccessKeyId": "%s", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "%s"}\n' \
  '$AK' '$SK' '$TOKEN' '$EXP_FUTURE'
PROC
cat >"$WORK/cred_proc.sh" <<PROC
#!/bin/sh
v=1; e=$EXP_FUTURE
[ "\${1:-}" = --version ] && v=\$2
[ "\${1:-}" = --expired ] && e=2020-01-01T00:00:00Z
printf '{"Version": %s, "AccessKeyId": "%s", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "%s"}\n' \
  "\$v" '$AK' '$SK' '$TOKEN' "\$e"
PROC
printf '#!/bin/sh\necho "sso session expired; run aws sso login" >&2\nexit 3\n' >"$WORK/cred_proc_fail.sh"
chmod +x "$WORK/cred proc.sh" "$WORK/cred_proc.sh" "$WORK/cred_proc_fail.sh"
start_server ok
update AWS_PROFILE=proc
expect_ok credential-process "profile proc: credential_process" '^GET /spot-advisor-data.json'
[ "$(tr '\n' '|' <"$WORK/proc_args")" = "--mode|two words|ok|" ] ||
    fail "credential_process: argv split: $(cat "$WORK/proc_args")"
update AWS_PROFILE=procfail
# the program's path is shortened with "..." past the message's limit (a
# long $WORK in CI): the message still names it and keeps the reason
expect_fail process-exit 1 "ec2fit: update: credentials: profile 'procfail': credential_process: '/[^']*cred_proc_f[^']*' exited with status 3: sso session expired; run aws sso login"
update AWS_PROFILE=procv2
expect_fail process-version 1 "ec2fit: update: credentials: profile 'procv2': credential_process: \"Version\" must be 1"
update AWS_PROFILE=procold
expect_fail process-expired 1 "ec2fit: update: credentials: profile 'procold': credential_process: the credentials expired at 2020-01-01T00:00:00Z"
update AWS_PROFILE=procmissing
expect_fail process-missing 1 "ec2fit: update: credentials: profile 'procmissing': credential_process: cannot run '$WORK/no_such_program': No such file or directory"

# ---- 5. ECS / EKS container credentials --------------------------------------
echo "$ECS_TOKEN" >"$WORK/ecs_token"
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE="$WORK/ecs_token"
expect_ok ecs-token-file "container credentials" '^ECS GET /ecs/creds auth=ok$'
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN"
expect_ok ecs-token "container credentials" '^ECS GET /ecs/creds auth=ok$'
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE="$WORK/no_such_ecs_token"
expect_fail ecs-missing-file 1 "ec2fit: update: credentials: container credentials: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: $WORK/no_such_ecs_token: No such file or directory"
update AWS_CONTAINER_CREDENTIALS_FULL_URI="http://example.com/creds"
expect_fail ecs-plain-http 2 "ec2fit: update: credentials: container credentials \(AWS_CONTAINER_CREDENTIALS_FULL_URI\): http://example.com/creds: plain http is only allowed to 127.0.0.1, localhost, \[::1\] and 169.254.169.254, \[fd00:ec2::254\], 169.254.170.2, 169.254.170.23, \[fd00:ec2::23\]; use https"
start_server cred403
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN"
expect_fail ecs-403 1 "ec2fit: update: credentials: container credentials \(AWS_CONTAINER_CREDENTIALS_FULL_URI\): HTTP 403: forbidden"
start_server credbad
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN"
expect_fail ecs-badjson 1 "ec2fit: update: credentials: container credentials \(AWS_CONTAINER_CREDENTIALS_FULL_URI\): the answer is not a JSON object"
start_server credexpired
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN"
expect_fail ecs-expired 1 "ec2fit: update: credentials: container credentials \(AWS_CONTAINER_CREDENTIALS_FULL_URI\): the credentials expired at 2020-01-01T00:00:00Z"

# ---- 6. SSO (sso_session token cache -> portal GetRoleCredentials) -----------
mkdir -p "$HOME/.aws/sso/cache"
SSO_CACHE="$HOME/.aws/sso/cache/$(printf %s corp | sha1sum | cut -d' ' -f1).json"
LEGACY_CACHE="$HOME/.aws/sso/cache/$(printf %s https://legacy.awsapps.com/start | sha1sum | cut -d' ' -f1).json"
printf '{"startUrl": "https://corp.awsapps.com/start", "region": "us-east-1", "accessToken": "%s", "expiresAt": "%s"}\n' \
    "$SSO_TOKEN" "$EXP_FUTURE" >"$SSO_CACHE"
start_server ok
update AWS_PROFILE=sso AWS_ENDPOINT_URL_SSO="$URL"
expect_ok sso "profile sso: SSO account 123456789012 role PricingRead" \
    '^SSO GET /federation/credentials account=123456789012 role=PricingRead token=ok$'
update AWS_PROFILE=ssolegacy AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-legacy-nocache 1 "ec2fit: update: credentials: profile 'ssolegacy': SSO: token cache: $LEGACY_CACHE: No such file or directory \(run aws sso login --profile ssolegacy\)"
cp "$SSO_CACHE" "$LEGACY_CACHE"
update AWS_PROFILE=ssolegacy AWS_ENDPOINT_URL_SSO="$URL"
expect_ok sso-legacy "profile ssolegacy: SSO account 123456789012 role PricingRead" 'token=ok$'
update AWS_PROFILE=ssonorole AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-norole 2 "ec2fit: update: credentials: profile 'ssonorole': SSO: sso_role_name is not set"
printf '{"accessToken": "%s", "expiresAt": "2020-01-01T00:00:00Z"}\n' "$SSO_TOKEN" >"$SSO_CACHE"
update AWS_PROFILE=sso AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-token-expired 1 "ec2fit: update: credentials: profile 'sso': SSO: the SSO token expired at 2020-01-01T00:00:00Z \(run aws sso login --sso-session corp\)"
rm -f "$SSO_CACHE"
update AWS_PROFILE=sso AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-missing-cache 1 "ec2fit: update: credentials: profile 'sso': SSO: token cache: $SSO_CACHE: No such file or directory \(run aws sso login --sso-session corp\)"
printf '{"accessToken": "%s", "expiresAt": "%s"}\n' "$SSO_TOKEN" "$EXP_FUTURE" >"$SSO_CACHE"
start_server cred403
update AWS_PROFILE=sso AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-403 1 "ec2fit: update: credentials: profile 'sso': SSO: GetRoleCredentials: HTTP 403: forbidden"
start_server credexpired
update AWS_PROFILE=sso AWS_ENDPOINT_URL_SSO="$URL"
expect_fail sso-expired 1 "ec2fit: update: credentials: profile 'sso': SSO: GetRoleCredentials: the credentials expired \(expiration 1577836800000 ms\)"

# ---- the chain's order: the profile before the container, the container
# before IMDS ---------------------------------------------------------------------
start_server ok
update AWS_PROFILE=proc AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN"
grep -qx 'ec2fit: update: credentials: profile proc: credential_process' "$WORK/err" ||
    fail "order: profile before container: $(grep credentials "$WORK/err")"
update AWS_CONTAINER_CREDENTIALS_FULL_URI="$URL/ecs/creds" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN="$ECS_TOKEN" "${IMDS[0]}" "${IMDS[1]}=$URL"
grep -qx 'ec2fit: update: credentials: container credentials' "$WORK/err" ||
    fail "order: container before IMDS: $(grep credentials "$WORK/err")"
grep -q '^PUT ' "$WORK/log" && fail "order: IMDS asked although the container answered"

stop_server
if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all credential-chain cases passed"
