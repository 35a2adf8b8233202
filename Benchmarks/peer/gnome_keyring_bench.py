#!/usr/bin/env python3
"""The Linux peer: gnome-keyring's Secret Service through libsecret, from one persistent client.

Run inside a private D-Bus session with an unlocked keyring (see run-gnome-keyring.sh):
    python3 gnome_keyring_bench.py ITEMS LOOKUPS
Prints one JSON object with store and lookup figures.
"""
import json
import statistics
import sys
import time

import gi

gi.require_version("Secret", "1")
from gi.repository import Secret  # noqa: E402

SCHEMA = Secret.Schema.new(
    "org.keychainlab.Bench",
    Secret.SchemaFlags.NONE,
    {"service": Secret.SchemaAttributeType.STRING, "account": Secret.SchemaAttributeType.STRING},
)


def timed(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main():
    items = int(sys.argv[1])
    lookups = int(sys.argv[2])
    store_times = []
    for index in range(items):
        attributes = {"service": "bench", "account": f"user-{index}"}
        store_times.append(
            timed(lambda: Secret.password_store_sync(SCHEMA, attributes, Secret.COLLECTION_DEFAULT, f"bench {index}", f"secret-{index}", None))
        )
    lookup_times = []
    for round_ in range(lookups):
        index = (round_ * 7919) % items
        attributes = {"service": "bench", "account": f"user-{index}"}
        found = []
        lookup_times.append(timed(lambda: found.append(Secret.password_lookup_sync(SCHEMA, attributes, None))))
        if found[0] != f"secret-{index}":
            raise SystemExit(f"lookup of user-{index} returned {found[0]!r}")
    # Stores measured at the end of the fill, where the keyring holds about `items` items.
    tail = store_times[-min(200, len(store_times)):]
    print(json.dumps({
        "items": items,
        "store_per_second": len(tail) / sum(tail),
        "store_median_ms": statistics.median(tail) * 1000,
        "lookup_per_second": len(lookup_times) / sum(lookup_times),
        "lookup_median_ms": statistics.median(lookup_times) * 1000,
        "lookup_p99_ms": sorted(lookup_times)[int(len(lookup_times) * 0.99) - 1] * 1000,
    }))


if __name__ == "__main__":
    main()
