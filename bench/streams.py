"""Pushed updates on one box: open streams, rounds reaching them, memory, a restart, two nodes.

    .venv/bin/python bench/streams.py [--streams 5000] [--every 180] [--seconds 60] [--nodes 1|2]
        [--web "gunicorn ..."] [--no-restart]

Builds the app as bench/capacity.py does (its own PostgreSQL database `sk_streams`, Redis db 6
flushed, the Procfile's release line, then its web line with $PORT, DEBUG off): `--nodes 2` starts
the web line twice, sharing the database and Redis. Then:

1. Idle rounds: tables' rounds recorded one at a time, nobody streaming (their p95 is the base).
2. N phones on tables of 4 to 6 (one account per table, one app session per phone, as capacity.py
   makes them) each open `GET /api/v1/games/{id}/events/` from a child process (asyncio, one
   connection each; with two nodes, every other phone on node B), ramped over a few seconds. The web
   processes' memory (RSS summed over the process group, from /proc) before and once all are open
   gives the memory per open stream.
3. For `--seconds`, every table records a round every `--every` seconds (offset uniform in [0, every)):
   a club night is a round every 180 s, and a shorter `--every` compresses the night (more rounds per
   second than a real one holds). Each round's p95 is compared with the idle one; each round's new
   ETag is looked for on its table's streams: how long after the round's answer each stream had it
   (the commit comes before the answer, so this is an upper bound of commit to phone), and the share
   of a table's streams that had it within 1 s. Rounds recorded on node A only, so with two nodes
   half the streams hear them through Redis.
4. The web line is stopped (TERM) and started again; every stream comes back by itself after its
   `retry:` (2 to 6 s, sending Last-Event-ID): the seconds until all are open again, and any 5xx.

The phones' client shares the cores with the server: its CPU time is printed. Figures go to
docs/benchmarks.md ("Issue 39").
"""

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import capacity  # the same build, server and tables as bench/capacity.py

capacity.DATABASE = "sk_streams"
capacity.REDIS_URL = "redis://127.0.0.1:6379/6"
capacity.LOG = Path(tempfile.gettempdir()) / "sk-streams-gunicorn.log"


def group_rss(server) -> int:
    """Bytes of RSS of the server's process group (gunicorn's master and workers)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.getpgid(int(pid)) != server.process.pid:
                continue
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except (OSError, ProcessLookupError):
            continue
    return total


def raise_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# The phones' child: N streams, each reconnecting after its retry: with Last-Event-ID, as a browser does.
async def stream(port, game, token, log, state, ramp):
    await asyncio.sleep(ramp)
    last, retry = None, 3000
    while not state["stop"]:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            state["refused"] += 1
            await asyncio.sleep(retry / 1000)
            continue
        head = f"GET /api/v1/games/{game}/events/ HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
        head += f"X-Session-Token: {token}\r\n" + (f"Last-Event-ID: {last}\r\n" if last else "") + "\r\n"
        try:
            writer.write(head.encode())
            status_line = await reader.readline()
            status = int(status_line.split()[1]) if status_line else 0
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            if status != 200:
                state["failed"].append(status)
                writer.close()
                await asyncio.sleep(retry / 1000)
                continue
            state["open"] += 1
            state["opened_at"].append(time.time())
            buffer = b""
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n\n" in buffer:  # chunked framing lines are skipped: only our fields are read
                    block, buffer = buffer.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"retry: "):
                            retry = int(line[7:])
                        elif line.startswith(b"id: "):
                            last = line[4:].decode().strip()
                            log.append((game, last, time.time(), port))
            state["open"] -= 1
        except (OSError, ValueError, IndexError):
            state["open"] = max(0, state["open"] - 1)
        finally:
            writer.close()
        await asyncio.sleep(retry / 1000)


async def phones(config: dict):
    raise_open_files()
    log, state = [], {"open": 0, "failed": [], "refused": 0, "stop": False, "opened_at": []}
    n = len(config["phones"])
    tasks = [
        asyncio.create_task(stream(port, game, token, log, state, config["ramp"] * i / n))
        for i, (port, game, token) in enumerate(config["phones"])
    ]
    control = Path(config["control"])
    report = Path(config["report"])
    while not control.exists() or control.read_text() != "stop":
        report.write_text(
            json.dumps({"open": state["open"], "failed": len(state["failed"]), "refused": state["refused"]})
        )
        await asyncio.sleep(0.2)
    state["stop"] = True
    for task in tasks:
        task.cancel()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    Path(config["out"]).write_text(json.dumps({
        "log": log, "failed": state["failed"], "refused": state["refused"],
        "cpu": usage.ru_utime + usage.ru_stime,
    }))  # fmt: skip


def child_status(report: Path) -> dict:
    try:
        return json.loads(report.read_text())
    except (OSError, ValueError):
        return {"open": 0, "failed": 0, "refused": 0}


def wait_open(report: Path, count: int, limit: float) -> float | None:
    began = time.monotonic()
    while time.monotonic() - began < limit:
        if child_status(report)["open"] >= count:
            return time.monotonic() - began
        time.sleep(0.1)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--every", type=float, default=180.0, help="seconds between two rounds of a table")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long rounds are recorded")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which the streams open")
    parser.add_argument("--idle-rounds", type=int, default=20)
    parser.add_argument("--nodes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--web", metavar="COMMAND", help="a web line instead of the Procfile's")
    parser.add_argument("--phones-child", metavar="CONFIG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phones_child:
        asyncio.run(phones(json.loads(Path(args.phones_child).read_text())))
        return
    raise_open_files()
    env = capacity.server_env(10**9) | {"WEB_CONNECTIONS": str(args.streams + 1000)}
    capacity.fresh_stores()
    release = capacity.procfile("release")
    done = subprocess.run(["bash", "-c", release], cwd=capacity.ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"release failed\n{done.stderr[-2000:]}")
    os.environ.update(env | {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings"})
    sys.path.insert(0, str(capacity.ROOT))
    import django

    django.setup()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    servers = [capacity.Server(env, args.web) for _ in range(args.nodes)]
    work = Path(tempfile.mkdtemp(prefix="sk-streams-"))
    child = None
    try:
        for server in servers:
            server.wait_healthy()
        a = servers[0]
        print(f"# bench/streams.py: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
        print(f"web: {a.shown}  ({args.nodes} node{'s' if args.nodes > 1 else ''}, WEB_CONCURRENCY="
              f"{os.environ.get('WEB_CONCURRENCY', 'unset')})", flush=True)  # fmt: skip
        rng = random.Random(39)
        tables = capacity.make_tables(a.port, args.streams, rng)
        idle, idle_errors = capacity.idle_rounds(a.port, tables, args.idle_rounds)
        idle_p95 = capacity.p95(idle)
        rss_before = sum(group_rss(server) for server in servers)
        phones_list = [
            (servers[i % args.nodes].port, table["game"], token)
            for table in tables
            for i, token in enumerate(table["tokens"])
        ][: args.streams]
        config = {"phones": phones_list, "ramp": args.ramp, "control": str(work / "control"),
                  "report": str(work / "report"), "out": str(work / "out")}  # fmt: skip
        (work / "config").write_text(json.dumps(config))
        child = subprocess.Popen([sys.executable, __file__, "--phones-child", str(work / "config")])
        opened = wait_open(work / "report", len(phones_list), args.ramp + 120)
        status = child_status(work / "report")
        time.sleep(3)
        rss_after = sum(group_rss(server) for server in servers)
        per_stream = (rss_after - rss_before) / max(1, status["open"])
        print(f"streams open: {status['open']} of {len(phones_list)} "
              f"({f'all in {opened:.1f} s' if opened is not None else 'not all'}; ramp {args.ramp:.0f} s), "
              f"failed connects {status['failed']}, refused {status['refused']}")  # fmt: skip
        print(f"web RSS {rss_before / 2**20:.0f} MB before, {rss_after / 2**20:.0f} MB with them open: "
              f"{per_stream / 1024:.1f} KB per open stream", flush=True)  # fmt: skip

        # Rounds on node A at each table's offset + k * every.
        rounds, lock = [], __import__("threading").Lock()
        began = time.monotonic()
        schedule = sorted(
            (rng.uniform(0, args.every) + k * args.every, n)
            for n in range(len(tables))
            for k in range(int(args.seconds // args.every) + 1)
        )
        schedule = [(at, n) for at, n in schedule if at < args.seconds]

        def one(at, n):
            time.sleep(max(0.0, began + at - time.monotonic()))
            start = time.time()
            elapsed, status_code = capacity.record(a.port, tables[n])
            etag = capacity.call(a.port, "GET", f"/api/v1/games/{tables[n]['game']}/",
                                 headers={"X-Session-Token": tables[n]["tokens"][0]})[1].getheader("ETag")  # fmt: skip
            with lock:
                rounds.append((n, start, start + elapsed / 1000, elapsed, status_code, etag))

        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(64) as pool:
            list(pool.map(lambda item: one(*item), schedule))
        time.sleep(3)
        loaded = [r[3] for r in rounds]
        errors = sum(r[4] != 201 for r in rounds)
        print(f"rounds: {len(rounds)} in {args.seconds:.0f} s (a round every {args.every:.0f} s per table, "
              f"{len(rounds) / args.seconds:.1f}/s); p95 {capacity.p95(loaded):.0f} ms vs idle {idle_p95:.0f} ms "
              f"({capacity.p95(loaded) / idle_p95:.2f}x); failed rounds {errors + idle_errors}", flush=True)  # fmt: skip

        restart_figure = None
        if not args.no_restart:
            ports = [server.port for server in servers]
            for server in servers:
                server.stop()
            stopped = time.monotonic()
            chosen = capacity.free_port
            try:  # the same ports again, as a restart of the same dynos
                fresh = []
                for port in ports:
                    capacity.free_port = lambda port=port: port
                    fresh.append(capacity.Server(env, args.web))
            finally:
                capacity.free_port = chosen
            servers[:] = fresh
            for server in fresh:
                server.wait_healthy()
            back = wait_open(work / "report", len(phones_list), 120)
            restart_figure = (time.monotonic() - stopped, back)
        (work / "control").write_text("stop")
        child.wait(timeout=120)
        out = json.loads((work / "out").read_text())
        # Delivery: each round's new ETag on its table's streams.
        seen: dict[tuple[int, str], list[tuple[float, int]]] = {}
        for game, etag, at, port in out["log"]:
            seen.setdefault((game, etag), []).append((at, port))
        lags, shares, lags_b = [], [], []
        streams_of = {}
        for _port, game, _ in phones_list:
            streams_of[game] = streams_of.get(game, 0) + 1
        for n, _start, end, _, code, etag in rounds:
            if code != 201 or etag is None:
                continue
            game = tables[n]["game"]
            got = seen.get((game, etag), [])
            these = [max(0.0, at - end) for at, _ in got]
            lags += these
            lags_b += [max(0.0, at - end) for at, port in got if port != a.port]
            shares.append(sum(lag <= 1.0 for lag in these) / streams_of[game])
        within = sum(share >= 0.99 for share in shares) / max(1, len(shares))
        print(f"delivery (round's answer to the stream's event): median {statistics.median(lags) * 1000:.0f} ms, "
              f"p95 {capacity.p95(lags) * 1000:.0f} ms, p99 {statistics.quantiles(lags, n=100)[98] * 1000:.0f} ms, "
              f"max {max(lags) * 1000:.0f} ms over {len(lags)} deliveries; rounds whose table's streams had it "
              f"99% within 1 s: {within:.1%}")  # fmt: skip
        if lags_b:
            print(f"node B (heard through Redis): median {statistics.median(lags_b) * 1000:.0f} ms, "
                  f"p95 {capacity.p95(lags_b) * 1000:.0f} ms, max {max(lags_b) * 1000:.0f} ms")  # fmt: skip
        if restart_figure:
            total, back = restart_figure
            print(f"restart: all {len(phones_list)} streams open again "
                  f"{f'{back:.1f} s after the new processes answered' if back is not None else 'NOT within 120 s'} "
                  f"({total:.1f} s from the stop)")  # fmt: skip
        bad = [code for code in out["failed"] if code >= 500]
        print(f"stream answers other than 200: {len(out['failed'])} ({len(bad)} 5xx); phones' client CPU "
              f"{out['cpu']:.1f} s; load average at the end {os.getloadavg()[0]:.2f}")  # fmt: skip
    finally:
        if child is not None and child.poll() is None:
            (work / "control").write_text("stop")
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
