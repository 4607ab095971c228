"""Fault drill at full size: `papershelf serve` killed with SIGKILL in the middle of 2,000 saves,
then restarted; every acknowledged save must be there, once, and SQLite's integrity check pass.

    python bench/faults.py [--store sqlite|postgresql|both] [--saves 2000]
"""

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from papershelf.testing import kill_during_saves  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--saves", type=int, default=2000)
    args = ap.parse_args()
    for store in (["sqlite", "postgresql"] if args.store == "both" else [args.store]):
        env, admin, name = None, None, None
        if store == "postgresql":
            import psycopg

            name = f"papershelf_faults_{uuid.uuid4().hex[:8]}"
            admin = psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                                    autocommit=True)
            admin.cursor().execute(f'CREATE DATABASE "{name}"')
            env = {"PAPERSHELF_DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{name}"}
        try:
            t = time.monotonic()
            r = kill_during_saves(tempfile.mkdtemp(prefix="papershelf-faults-"), args.saves,
                                  args.saves // 2, clients=8, env=env)
            took = time.monotonic() - t
        finally:
            if admin is not None:
                cur = admin.cursor()
                cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE datname = %s", (name,))
                cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
                admin.close()
        verdict = "PASS" if not r["lost"] and not r["duplicates"] and r["integrity"] in (None, "ok") \
            else "FAIL"
        print(f"{store:10s} SIGKILL after {r['acknowledged']} acknowledged of {args.saves} saves: "
              f"stored after restart {r['stored']}, lost {len(r['lost'])}, duplicates "
              f"{r['duplicates']}, integrity {r['integrity'] or 'n/a (PostgreSQL)'}  "
              f"[{verdict}, {took:.1f} s]")


if __name__ == "__main__":
    main()
