"""Talk to a kernel's widgets through jupyter_client, as a front end does.

    /usr/bin/python3 comms.py KERNEL_NAME

Runs a cell that makes a slider with a change callback, then, as a widget
front end would: asks comm_info, moves the slider (comm_msg update from the
client), has a cell set it (an update from the kernel), sends bad messages
(a value the slider cannot take, an unknown comm), closes it from a cell,
and asks comm_info again. Prints one JSON object: for each step, the iopub
messages it caused (type, whether their parent is the step's own request
or the cell that made the slider, and their content). The caller
(cmd/routelab's tests) decides what is right.
"""

import json
import queue
import sys
import time

from jupyter_client.manager import KernelManager

KERNEL = sys.argv[1] if len(sys.argv) > 1 else "routelab"
TIMEOUT = 30

SLIDER = '''rate := lab.Slider("rate", 50, 400, 10, 100)
rate.OnChange(func(v float64) { fmt.Println("rate now", v) })
rate'''


def collect(kc, parents, until, quiet=0.5):
    """iopub messages whose parent is one of parents, until until(msgs) holds
    and nothing more came for quiet seconds (or TIMEOUT)."""
    got, deadline, last = [], time.time() + TIMEOUT, time.time()
    while time.time() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=0.05)
        except queue.Empty:
            if until(got) and time.time() - last > quiet:
                break
            continue
        pid = m["parent_header"].get("msg_id")
        if pid not in parents:
            continue
        last = time.time()
        got.append({"type": m["msg_type"], "parent": parents[pid], "content": m["content"],
                    "metadata": m["metadata"]})
    return got


def idle_of(mid):
    return lambda msgs: any(m["type"] == "status" and m["content"]["execution_state"] == "idle"
                            and m["parent"] == "self" for m in msgs)


def main():
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=TIMEOUT)
    out = {}
    try:
        cell = kc.execute(SLIDER)
        out["make"] = collect(kc, {cell: "self"}, idle_of(cell))
        model = None
        for m in out["make"]:
            if m["type"] == "execute_result":
                model = m["content"]["data"].get("application/vnd.jupyter.widget-view+json", {}).get("model_id")
        out["model_id"] = model

        def info(key, target):
            mid = kc.comm_info(target_name=target)
            while True:
                r = kc.get_shell_msg(timeout=TIMEOUT)
                if r["parent_header"].get("msg_id") == mid:
                    out[key] = r["content"]
                    return

        info("info_before", "jupyter.widget")

        def send(key, comm_id, data, wait_for):
            msg = kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
            kc.shell_channel.send(msg)
            mid = msg["header"]["msg_id"]
            out[key] = collect(kc, {mid: "self", cell: "cell"}, wait_for)

        has_stream = lambda text: lambda msgs: any(m["type"] == "stream" and text in m["content"]["text"] for m in msgs)
        send("move", model, {"method": "update", "state": {"value": 205}, "buffer_paths": []}, has_stream("rate now 210"))
        send("bad_value", model, {"method": "update", "state": {"value": "fast"}, "buffer_paths": []}, has_stream("cannot take"))
        send("unknown_comm", "no-such-comm", {"method": "update", "state": {"value": 1}}, lambda msgs: True)

        for key, code in (("set", "rate.Set(300)"), ("value", "rate.Value()"), ("close", "rate.Close()")):
            mid = kc.execute(code)
            out[key] = collect(kc, {mid: "self", cell: "cell"}, idle_of(mid))
        info("info_after", "jupyter.widget")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    print(json.dumps(out))


main()
