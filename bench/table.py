#!/usr/bin/env python3
"""The one table `make bench` ends with: every figure, its reference from the same run, the ratio
and the aim, read from the `name: value` lines each benchmark printed (DIR/<script>.txt, as
bench/all.sh writes them) and the load averages bench/all.sh noted around each (DIR/<script>.load).

    bench/table.py .build/bench            # a Markdown table, the README's benchmark section
"""
import os
import sys


def load(folder, script):
    """The `name: value` lines of one script's output (numbers where they are numbers)."""
    values = {}
    path = os.path.join(folder, f"{script}.txt")
    if not os.path.exists(path):
        return None
    for line in open(path, encoding="utf-8", errors="replace"):
        name, colon, value = line.strip().partition(": ")
        if not colon or " " in name or not name:
            continue
        try:
            values[name] = float(value)
        except ValueError:
            values[name] = value
    return values


def loads(folder, script):
    path = os.path.join(folder, f"{script}.load")
    return open(path).read().split() if os.path.exists(path) else []


def number(value, digits=0):
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return f"{value:,.{digits}f}"


# (script, figure, measured, reference, ratio, aim): measured and reference are (text, value) of a
# run's values; ratio is a number or None; aim is (text, test) or None.
def rows(folder):
    out = []

    def add(script, figure, measured, reference, ratio, aim=None):
        v = load(folder, script)
        if v is None:
            out.append((script, figure, "not run", "", "", aim[0] if aim else "", ""))
            return
        try:
            m, r, q = measured(v), reference(v), ratio(v)
        except (KeyError, TypeError, ZeroDivisionError):
            out.append((script, figure, "no result (see its output)", "", "", aim[0] if aim else "", "no"))
            return
        holds = "" if aim is None else ("yes" if aim[1](v, q) else "**no**")
        out.append((script, figure, m, r, "—" if q is None else f"{q:.2f}", aim[0] if aim else "", holds))

    add("http", "`GET /v1/environment`, journal on, 64 connections",
        lambda v: f"{number(v['host_rps'])}/s", lambda v: f"nginx, same bytes: {number(v['nginx_rps'])}/s",
        lambda v: v["host_vs_nginx"], ("≥ 0.8", lambda v, q: q >= 0.8))
    add("http", "the same with access logs on both sides",
        lambda v: "", lambda v: "nginx with its access log", lambda v: v["host_vs_nginx_with_access_log"])
    add("sale", "durable card sales, 32 connections",
        lambda v: f"{number(v['sale_rps'])}/s", lambda v: f"nginx answering the same POSTs: {number(v['nginx_rps'])}/s",
        lambda v: v["sale_vs_nginx"], ("≥ 0.35", lambda v, q: q >= 0.35))
    add("sale", "card sales, p99 latency",
        lambda v: f"{v['sale_p99_ms']:.2f} ms", lambda v: f"nginx: {v['nginx_p99_ms']:.2f} ms",
        lambda v: v["sale_p99_ms"] / v["nginx_p99_ms"], ("≤ 2× nginx's", lambda v, q: q <= 2.0))
    add("sale", "card sales vs raw SQLite",
        lambda v: f"{number(v['sale_rps'])}/s", lambda v: f"raw SQLite, same pragmas: {number(v['raw_sqlite_rps'])}/s",
        lambda v: v["sale_vs_raw_sqlite"])
    # The storage's own bound of a durable sale on this machine: the same rows through the host's
    # Store alone (its group commit, the sync beside the next commit), no HTTP, no JSON, no crypto.
    add("sale", "card sales vs the same rows through the Store alone",
        lambda v: f"{number(v['sale_rps'])}/s, p99 {v['sale_p99_ms']:.2f} ms",
        lambda v: f"Store alone: {number(v['store_only_rps'])}/s, p99 {v['store_only_p99_ms']:.2f} ms "
                  f"({v['store_only_rps'] / v['nginx_rps']:.2f} of nginx)",
        lambda v: v["sale_vs_store_only"])
    add("sale", "card sales on PostgreSQL, one replica",
        lambda v: f"{number(v['pg_sale_rps'])}/s, p99 {v['pg_sale_p99_ms']:.1f} ms",
        lambda v: f"pgbench, same transaction: {number(v['pgbench_sale_rps'])}/s", lambda v: v["pg_sale_vs_pgbench"])
    add("webhook-delivery", "webhook deliveries, 10,000 events due at once",
        lambda v: f"{number(v['deliveries_per_s'])}/s, {number(v['deliveries_lost'])} lost, {number(v['deliveries_duplicated'])} repeated",
        lambda v: "", lambda v: None,
        ("≥ 10,000/s, none lost", lambda v, q: v["deliveries_per_s"] >= 10_000 and v["deliveries_lost"] == 0))
    add("webhooks", "webhook verifications, 1 KiB body, one core",
        lambda v: f"{number(v['verify_per_s'])}/s", lambda v: f"OpenSSL's bare HMAC-SHA256: {number(v['openssl_hmac_sha256_1kib_per_s'])}/s",
        lambda v: v["verify_per_s"] / v["openssl_hmac_sha256_1kib_per_s"], ("≥ 0.8", lambda v, q: q >= 0.8))
    add("webhooks", "the same vs Python's standardwebhooks",
        lambda v: "", lambda v: f"{number(v['python_standardwebhooks_verify_per_s'])}/s", lambda v: v["verify_vs_python_standardwebhooks"])
    add("apm", "QR payments, 32 devices",
        lambda v: f"{number(v['qr_payments_per_s'])}/s", lambda v: f"card sales: {number(v['card_sales_per_s'])}/s",
        lambda v: v["qr_vs_card_sales"])
    add("apm", "BLIK payments, 32 devices",
        lambda v: f"{number(v['blik_payments_per_s'])}/s", lambda v: f"card sales: {number(v['card_sales_per_s'])}/s",
        lambda v: v["blik_vs_card_sales"])
    add("history", "history at 1M rows, p99",
        lambda v: f"{v['history_p99_ms_1m']:.2f} ms", lambda v: f"the same SQL in-process: {v['history_raw_sqlite_p99_ms_1m']:.2f} ms",
        lambda v: v["history_p99_vs_raw_sqlite_1m"])
    add("portal", "portal pages at 1M rows",
        lambda v: f"{number(v['portal_failures'])} failures", lambda v: "", lambda v: None)
    add("snapshot", "a host's snapshot save",
        lambda v: f"{v['sandbox_snapshot_save_ms']:.1f} ms", lambda v: f"`sqlite3 .backup`: {v['sandbox_sqlite_backup_ms']:.1f} ms",
        lambda v: v["sandbox_snapshot_save_ms"] / v["sandbox_sqlite_backup_ms"])
    add("idle", "`sandbox up` idle, CPU seconds",
        lambda v: f"{v['idle_cpu_s']:.2f} s, {v['idle_wakeups_per_s']:.1f} wake-ups/s",
        lambda v: f"nginx: {v['nginx_idle_cpu_s']:.2f} s", lambda v: None)
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else ".build/bench"
    if not os.path.isdir(folder):
        sys.exit(f"bench/table.py: no folder {folder} (make bench writes it)")
    print("| figure | measured | reference (same run) | ratio | aim | holds | load before → after |")
    print("|---|---|---|---|---|---|---|")
    for script, figure, measured, reference, ratio, aim, holds in rows(folder):
        load = loads(folder, script)
        around = f"{load[0]} → {load[1]}" if len(load) == 2 else ""
        print(f"| {figure} (`bench/{script}.sh`) | {measured} | {reference} | {ratio} | {aim} | {holds} | {around} |")


if __name__ == "__main__":
    main()
