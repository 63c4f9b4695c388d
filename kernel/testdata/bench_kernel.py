"""Latency benchmark for an installed Jupyter kernel, measured with jupyter_client.

    /usr/bin/python3 bench_kernel.py KERNEL_NAME [--trivial CODE] [--busy CODE]

Prints, for the kernel:
  start       launch of the kernel process to kernel_info_reply (median and p95 of
              --starts, the samples, and how many took over 100 ms: a client
              that connects before the kernel listens retries only after
              libzmq's reconnect interval, 100 ms plus up to 100 ms of jitter)
  round trip  execute_request of a trivial cell to both execute_reply and
              iopub idle (median and p95 over --executes)
  interrupt   interrupt_request on control, while a busy cell runs, to that
              cell's iopub idle (median over --interrupts)

Requests are built and signed by jupyter_client's Session and sent over plain
pyzmq sockets (no client threads). Round trip and interrupt are measured two
ways: "frames" waits for the reply and idle frames, recognising them by their
parent msg_id without decoding the rest (the kernel's and the transport's
time), and "jupyter_client" also runs Session.deserialize on every message
received, as front ends do (that adds roughly 0.1 ms of client CPU per
message). "start" is reported with libzmq's default reconnect interval
(100 ms, what front ends use) and with 1 ms.

Defaults suit routelab's echo test kernel ("echo 1" / "loop"); for the Go
kernel pass e.g. --trivial '1' --busy 'for {}'.
"""

import argparse
import json
import statistics
import sys
import time

import zmq
from jupyter_client.manager import KernelManager


def now():
    return time.perf_counter()


def recv(session, sock, timeout):
    if not sock.poll(int(timeout * 1000)):
        raise TimeoutError("no message within %.1fs" % timeout)
    _, msg = session.feed_identities(sock.recv_multipart(), copy=True)
    return session.deserialize(msg)


def wait_idle(session, iopub, parent_id, timeout=10.0):
    deadline = now() + timeout
    while True:
        msg = recv(session, iopub, max(0.001, deadline - now()))
        if (msg["parent_header"].get("msg_id") == parent_id and msg["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"):
            return msg


def wait_reply(session, sock, parent_id, timeout=10.0):
    deadline = now() + timeout
    while True:
        msg = recv(session, sock, max(0.001, deadline - now()))
        if msg["parent_header"].get("msg_id") == parent_id:
            return msg


def connect(km, name, reconnect_ms=None):
    """A socket connected to one channel, as jupyter_client makes them; with
    reconnect_ms, a plain socket using that libzmq reconnect interval."""
    if reconnect_ms is None:
        return getattr(km, "connect_" + name)()
    kind = {"shell": zmq.DEALER, "control": zmq.DEALER, "iopub": zmq.SUB}[name]
    sock = km.context.socket(kind)
    sock.linger = 0
    sock.setsockopt(zmq.RECONNECT_IVL, reconnect_ms)
    if kind == zmq.SUB:
        sock.setsockopt(zmq.SUBSCRIBE, b"")
    sock.connect("%s://%s:%d" % (km.transport, km.ip, getattr(km, name + "_port")))
    return sock


def measure_start(name, reconnect_ms):
    km = KernelManager(kernel_name=name)
    t0 = now()
    km.start_kernel()
    shell = connect(km, "shell", reconnect_ms)
    msg = km.session.send(shell, "kernel_info_request", {})
    wait_reply(km.session, shell, msg["header"]["msg_id"], timeout=20)
    elapsed = now() - t0
    shell.close(linger=0)
    km.shutdown_kernel(now=True)
    return elapsed


def ready(km, shell, iopub):
    """Repeat kernel_info until iopub delivers too (PUB drops early messages)."""
    for _ in range(100):
        msg = km.session.send(shell, "kernel_info_request", {})
        wait_reply(km.session, shell, msg["header"]["msg_id"])
        try:
            wait_idle(km.session, iopub, msg["header"]["msg_id"], timeout=0.5)
            return
        except TimeoutError:
            continue
    raise RuntimeError("iopub never delivered")


def execute(km, shell, code):
    return km.session.send(shell, "execute_request", {
        "code": code, "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": False})["header"]["msg_id"]


def wait_frames(sock, parent_id, idle, timeout=10.0):
    """Wait for the reply to (or, with idle, the iopub idle of) parent_id,
    decoding only what is needed to recognise it."""
    mid = parent_id.encode()
    deadline = now() + timeout
    while True:
        if not sock.poll(int(max(0.001, deadline - now()) * 1000)):
            raise TimeoutError("no message for %s" % parent_id)
        frames = sock.recv_multipart()
        i = frames.index(b"<IDS|MSG>")
        if mid not in frames[i + 3]:
            continue
        if not idle:
            return
        if b'"status"' in frames[i + 2] and json.loads(frames[i + 5])["execution_state"] == "idle":
            return


def round_trips(km, shell, iopub, code, n, decode):
    out = []
    for _ in range(n):
        t0 = now()
        mid = execute(km, shell, code)
        if decode:
            reply = wait_reply(km.session, shell, mid)
            wait_idle(km.session, iopub, mid)
            if reply["content"]["status"] != "ok":
                raise RuntimeError("trivial cell failed: %r" % reply["content"])
        else:
            wait_frames(shell, mid, False)
            wait_frames(iopub, mid, True)
        out.append(now() - t0)
    return out


def interrupt_times(km, shell, control, iopub, code, n, decode):
    out = []
    for _ in range(n):
        mid = execute(km, shell, code)
        while True:  # the cell has started once execute_input is out
            msg = recv(km.session, iopub, 10)
            if msg["parent_header"].get("msg_id") == mid and msg["msg_type"] == "execute_input":
                break
        time.sleep(0.05)
        t0 = now()
        km.session.send(control, "interrupt_request", {})
        if decode:
            wait_idle(km.session, iopub, mid)
        else:
            wait_frames(iopub, mid, True)
        out.append(now() - t0)
        wait_frames(shell, mid, False)
        control.recv_multipart()  # the interrupt_reply
    return out


def measure_session(name, trivial, busy, executes, interrupts):
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    shell, control, iopub = connect(km, "shell"), connect(km, "control"), connect(km, "iopub")
    try:
        ready(km, shell, iopub)
        round_trips(km, shell, iopub, trivial, 20, True)  # warm up
        res = {}
        for decode in (False, True):
            key = "jupyter_client" if decode else "frames"
            res["trip_" + key] = round_trips(km, shell, iopub, trivial, executes, decode)
            res["stop_" + key] = interrupt_times(km, shell, control, iopub, busy, interrupts, decode)
        return res
    finally:
        for s in (shell, control, iopub):
            s.close(linger=0)
        km.shutdown_kernel(now=True)


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * len(values))) - 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel", help="kernelspec name, e.g. routelab-echo or routelab")
    ap.add_argument("--trivial", default="echo 1", help="a cell that does almost nothing")
    ap.add_argument("--busy", default="loop", help="a cell that runs until interrupted")
    ap.add_argument("--starts", type=int, default=9)
    ap.add_argument("--executes", type=int, default=200)
    ap.add_argument("--interrupts", type=int, default=20)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args()

    start_default = [measure_start(args.kernel, None) for _ in range(args.starts)]
    start_fast = [measure_start(args.kernel, 1) for _ in range(args.starts)]
    res = measure_session(args.kernel, args.trivial, args.busy, args.executes, args.interrupts)
    ms = lambda v: round(v * 1000, 3)
    result = {
        "kernel": args.kernel, "trivial": args.trivial, "busy": args.busy,
        "start_ms_median": ms(statistics.median(start_default)),
        "start_ms_p95": ms(p95(start_default)),
        "start_ms_samples": [ms(v) for v in start_default],
        "starts_over_100ms": sum(v > 0.1 for v in start_default),
        "start_ms_median_reconnect_1ms": ms(statistics.median(start_fast)),
        "samples": {"starts": args.starts, "executes": args.executes, "interrupts": args.interrupts},
    }
    for key in ("frames", "jupyter_client"):
        trips, stops = res["trip_" + key], res["stop_" + key]
        result["round_trip_ms_median_" + key] = ms(statistics.median(trips))
        result["round_trip_ms_p95_" + key] = ms(p95(trips))
        result["interrupt_to_idle_ms_median_" + key] = ms(statistics.median(stops))
        result["interrupt_to_idle_ms_max_" + key] = ms(max(stops))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    r = result
    print("kernel %s  (trivial %r, busy %r)" % (args.kernel, args.trivial, args.busy))
    print("  start -> kernel_info_reply  median %7.2f ms, p95 %.2f ms, %d of %d over 100 ms (reconnect 100 ms); "
          "median %.2f ms (reconnect 1 ms)   target p95 <= 40 ms" % (r["start_ms_median"], r["start_ms_p95"],
          r["starts_over_100ms"], args.starts, r["start_ms_median_reconnect_1ms"]))
    for key in ("frames", "jupyter_client"):
        print("  [%s]" % key)
        print("    trivial execute round trip median %7.3f ms, p95 %.3f ms (n=%d)   target <= 1 / 2 ms"
              % (r["round_trip_ms_median_" + key], r["round_trip_ms_p95_" + key], args.executes))
        print("    interrupt -> idle          median %7.2f ms, max %.2f ms (n=%d)   target <= 10 ms"
              % (r["interrupt_to_idle_ms_median_" + key], r["interrupt_to_idle_ms_max_" + key], args.interrupts))



if __name__ == "__main__":
    main()
