#!/usr/bin/env bash
# Interop: the unmodified official TypeScript client (@turnkey/http and
# @turnkey/api-key-stamper, pinned in .ci/interop/package-lock.json) against
# `vigil serve --demo`: users carry every field the client's types require,
# getMfaPolicies works, a signed body with a duplicated key is a 400 and two
# X-Stamp headers are a 401 (issue 8); and every operation of SPEC.md's
# Endpoints (twelve submits, five queries) plus approve/reject, list/get
# activity, whoami, policies, MFA, boot proof and organization configs, each
# through the client's own method, with every reply checked against the
# client's generated types and SPEC.md's operation table
# (.ci/interop/operations.js), and the oauth credential bundle opened with
# @turnkey/crypto (pinned too) and its key used to stamp. Needs Node 18+, the npm registry and sqlite3
# (to read the local OIDC issuer's key for the oauth activity and the demo's
# OAuth2 credential id).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/vigil" .

# Port 0: the system picks free ports; vigil serve --demo writes config.toml
# (with the URLs) before the ports accept connections.
"$work/vigil" serve --demo --data "$work/data" --addr 127.0.0.1:0 --auth-proxy-addr 127.0.0.1:0 \
  >"$work/serve.log" 2>&1 &
server_pid=$!

base_url=
for _ in $(seq 1 600); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "vigil serve exited:"; cat "$work/serve.log"; exit 1
  fi
  if [ -z "$base_url" ] && [ -f "$work/data/config.toml" ]; then
    base_url=$(sed -n 's/^ *base_url *= *"\(.*\)"/\1/p' "$work/data/config.toml" | head -n 1)
  fi
  if [ -n "$base_url" ] && curl -fsS -o /dev/null "$base_url/public/v1/discovery/webhooks/jwks" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
if [ -z "$base_url" ]; then
  echo "vigil serve --demo did not come up:"; cat "$work/serve.log"; exit 1
fi

(cd .ci/interop && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
# The local OIDC issuer's key, so that interop.js can play the login provider
# for the oauth activity (as server.MintDemoOIDCToken does in Go tests).
# And the demo's OAuth2 credential, which no query lists, for
# update_oauth2_credential.
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 missing: installing it"
  (apt-get update -qq && apt-get install -y -qq sqlite3) >/dev/null
fi
oidc_key= oauth2_credential=
if command -v sqlite3 >/dev/null; then
  oidc_key=$(sqlite3 -readonly "$work/data/vigil.db" "SELECT hex(value) FROM service_state WHERE key = 'oidc_issuer_key'")
  oauth2_credential=$(sqlite3 -readonly "$work/data/vigil.db" "SELECT id FROM oauth2_credentials LIMIT 1")
fi
VIGIL_OIDC_ISSUER_KEY_HEX=$oidc_key VIGIL_OAUTH2_CREDENTIAL_ID=$oauth2_credential \
  node .ci/interop/interop.js "$work/data"
