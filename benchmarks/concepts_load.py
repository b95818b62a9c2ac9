"""Load time and size of the concept thesaurus (savenow/text/concepts.txt), and lookup speed.

    python benchmarks/concepts_load.py [--runs 7]

Each run is a fresh interpreter (so nothing is cached) that imports savenow.text.concepts (CPU
ms, savenow.text.normalize already imported) and loads the packaged file (wall and CPU ms). A reference
figure (a fixed 8,000-entry dict loop, ~1 ms on an idle laptop) is printed beside them, because
the machine may be shared: divide by it to compare runs taken under different load.
Then groups, terms, keys, terms shared by several groups, and concepts_in() per text.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, time
import savenow.text.normalize  # every caller has it already
imported = time.process_time()
from savenow.text import concepts
imported = time.process_time() - imported
wall, cpu = time.perf_counter(), time.process_time()
loaded = concepts.thesaurus()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
ref = time.process_time()
table = {}
for i in range(8000):
    table.setdefault(str(i), []).append(i)
ref = time.process_time() - ref
print(json.dumps({"import": imported * 1e3, "wall": wall * 1e3, "cpu": cpu * 1e3, "ref": ref * 1e3}))
"""

# Sentences of the kind a personal assistant's memory holds (written for this benchmark).
TEXTS = [
    "我老婆下周三要带孩子去医院体检，记得提前挂号。",
    "The landlord wants the rent and the electricity bill paid before Friday.",
    "家里的树莓派跑着 Uptime Kuma，证书快过期了，要用 certbot 续签。",
    "Restarted gunicorn workers after the OOM; nginx still returns 502 on the staging VPS.",
    "Postgres 数据库每天凌晨用 restic 备份到 NAS，保留 30 个快照。",
    "Booked a flight to Shanghai for the Spring Festival; passport and visa are ready.",
    "猫咪该打疫苗了，顺便买猫粮和猫砂。",
    "Tailscale 组网后 SSH 端口不用暴露到公网，防火墙只放行 443。",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        runs.append(json.loads(out))
    for key, label in (
        ("import", "import CPU"),
        ("wall", "load wall"),
        ("cpu", "load CPU"),
        ("ref", "reference loop CPU"),
    ):
        values = sorted(run[key] for run in runs)
        print(
            f"{label:>20}: median {statistics.median(values):6.1f} ms  min {values[0]:6.1f} ms  ({args.runs} runs)"
        )
    ratio = statistics.median(run["cpu"] / run["ref"] for run in runs)
    print(f"{'load / reference':>20}: {ratio:.1f}x")

    from savenow.text.concepts import thesaurus

    loaded = thesaurus()
    roots = sum(1 for concept in loaded.concepts.values() if concept.parent is None)
    print(
        f"groups {len(loaded.concepts)} (roots {roots}), terms {loaded.term_count}, "
        f"keys {len(loaded._by_key)}, keys in several groups {len(loaded._shared)}"
    )
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        for text in TEXTS:
            loaded.concepts_in(text)
    per_text = (time.perf_counter() - start) / (rounds * len(TEXTS)) * 1e6
    print(f"concepts_in: {per_text:.0f} µs per text ({len(TEXTS)} texts of ~40 characters)")
    for text in TEXTS[:3]:
        print(f"  {text}\n    → {sorted(loaded.concepts_in(text))}")


if __name__ == "__main__":
    main()
