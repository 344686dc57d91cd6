#!/usr/bin/env bash
# Installs what the ssh-agent and hardware-token tests need, when missing:
# ssh-agent and ssh-add (openssh-client), SoftHSM2 (a software PKCS#11 token)
# and pkcs11-tool (opensc). Without them those tests skip; CI must not skip.
# Debian/Ubuntu (apt-get) only; run as root or with sudo available.
set -euo pipefail

need=()
command -v ssh-agent >/dev/null 2>&1 && command -v ssh-add >/dev/null 2>&1 || need+=(openssh-client)
command -v softhsm2-util >/dev/null 2>&1 || need+=(softhsm2)
command -v pkcs11-tool >/dev/null 2>&1 || need+=(opensc)

if [ ${#need[@]} -eq 0 ]; then
  echo "agent test tools present: $(command -v ssh-agent) $(command -v softhsm2-util) $(command -v pkcs11-tool)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing ${need[*]} and no apt-get here: install them with your package manager" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "missing ${need[*]}: run as root or install sudo" >&2; exit 1; }
  sudo=(sudo)
fi
echo "installing ${need[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"

for tool in ssh-agent ssh-add softhsm2-util pkcs11-tool; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool still missing after installing ${need[*]}" >&2; exit 1; }
done
