#!/usr/bin/env bash
# Captures as Wireshark reads them: for each scenario below, `aqm-sim run
# --pcap` writes a capture and its drops, and tshark must read both with
# exit 0 and no error-level expert item (malformed packet, bad IPv4/TCP/UDP
# checksum, with checksum validation switched on). "Previous segment not
# captured" and retransmissions are warnings and notes: expected at drops.
# Usage: scripts/check-pcap.sh [path/to/aqm-sim]
source "$(dirname "$0")/lib.sh"
ensure_tshark

SIM="${1:-$ROOT/target/release/aqm-sim}"
[ -x "$SIM" ] || die "no aqm-sim at $SIM: build it with cargo build --release -p aqm-core --bin aqm-sim"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# scenario  extra flags: SACK with RED drops, DCTCP's ECN marks and
# Accurate ECN, UDP among TCP, web connections, two-way traffic, a parking
# lot's second hop.
CASES=(
  "ns3-dumbbell-sack.json --pcap-from 50 --pcap-to 60"
  "dctcp-datacenter.json --pcap-to 1"
  "red-vs-droptail-cbr.json --pcap-to 20"
  "web-sessions-with-cbr.json --pcap-to 20"
  "two-way-traffic.json --pcap-to 20"
  "afpft-parking-lot.json --pcap-hop 1 --pcap-to 10"
)
CHECKS=(-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE)
failed=0
for case in "${CASES[@]}"; do
  read -r scenario flags <<< "$case"
  name="${scenario%.json}"
  # shellcheck disable=SC2086
  "$SIM" run "$ROOT/scenarios/$scenario" --force --pcap "$OUT/$name.pcap" $flags > /dev/null
  for file in "$OUT/$name.pcap" "$OUT/$name.drops.pcap"; do
    packets="$(tshark -r "$file" "${CHECKS[@]}" -T fields -e frame.number 2>/dev/null | wc -l)" ||
      { echo "FAIL $file: tshark could not read it"; failed=1; continue; }
    # Error-level expert items: malformed packets and bad checksums.
    errors="$(tshark -r "$file" "${CHECKS[@]}" -Y '_ws.expert.severity == error || _ws.malformed' 2>/dev/null | head -5)"
    if [ -n "$errors" ]; then
      echo "FAIL $file: $errors"
      failed=1
    else
      echo "ok   $(basename "$file"): $packets packets, no malformed packet or bad checksum"
    fi
  done
done
[ "$failed" = 0 ] || die "tshark found problems in the captures"
