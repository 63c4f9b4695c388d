"""Interrupt a running routelab kernel through jupyter_client, as front ends do.

    /usr/bin/python3 interrupts.py KERNEL_NAME

Starts the kernel with jupyter_client's KernelManager, defines a variable and
an interpreted routing policy, then interrupts four busy cells:

  loop_message     `for {}`, interrupted with KernelManager.interrupt_kernel()
                   (interrupt_mode "message": an interrupt_request on control)
  compare_message  a long lab.Compare whose policy is interpreted Go, likewise
  loop_sigint      `for {}`, interrupted by SIGINT sent to the kernel process
  compare_sigint   the long lab.Compare, interrupted by SIGINT

and prints one JSON object: per interrupt, the reply, the iopub messages of
the cell and the milliseconds from the interrupt to the cell's iopub idle;
after each, what later cells return. The caller (cmd/routelab's tests)
decides what is right.
"""

import json
import signal
import sys
import time

from jupyter_client.manager import KernelManager

KERNEL = sys.argv[1] if len(sys.argv) > 1 else "routelab"
TIMEOUT = 10

POLICY = """queue := lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})"""
SMALL = "lab.Compare(lab.Straggler().Seeds(2), lab.LeastQueue(), queue)"
# Millions of interpreted policy calls: many seconds unless interrupted.
LONG = "long := lab.Compare(lab.Straggler().Seeds(40).Measure(600), queue)"


def now():
    return time.perf_counter()


def parent_of(msg):
    return msg["parent_header"].get("msg_id")


def run(kc, code):
    """Execute code to completion; return its reply content and outputs."""
    outputs = []

    def hook(msg):
        if msg["msg_type"] in ("stream", "execute_result", "display_data", "error"):
            outputs.append({"type": msg["msg_type"], "content": msg["content"]})

    reply = kc.execute_interactive(code, timeout=60, output_hook=hook)
    return {"code": code, "reply": reply["content"], "outputs": outputs}


def text(result):
    """The text/plain of a cell's execute_result, or its error."""
    for out in result["outputs"]:
        if out["type"] == "execute_result":
            return out["content"]["data"].get("text/plain")
    r = result["reply"]
    return "%s: %s" % (r.get("ename"), r.get("evalue"))


def interrupt(km, kc, code, how):
    """Start code, interrupt it 0.3 s after it started, and wait for idle."""
    mid = kc.execute(code)
    iopub = []
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if parent_of(msg) == mid and msg["msg_type"] == "execute_input":
            break
    time.sleep(0.3)
    t0 = now()
    if how == "message":
        km.interrupt_kernel()
    else:
        km.signal_kernel(signal.SIGINT)
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if parent_of(msg) != mid:
            continue
        if msg["msg_type"] == "status":
            if msg["content"]["execution_state"] == "idle":
                break
            continue
        iopub.append(msg["msg_type"])
    elapsed = now() - t0
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if parent_of(reply) == mid:
            break
    c = reply["content"]
    return {"code": code, "how": how, "to_idle_ms": round(elapsed * 1000, 3), "status": c["status"],
            "ename": c.get("ename"), "evalue": c.get("evalue"), "iopub": iopub}


def main():
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    out = {"interrupt_mode": km.kernel_spec.interrupt_mode}
    try:
        kc.wait_for_ready(timeout=30)
        pid = km.provisioner.process.pid
        setup = [run(kc, "kept := 41"), run(kc, POLICY)]
        out["setup"] = [r["reply"]["status"] for r in setup]
        out["small_before"] = text(run(kc, SMALL))
        for name, code, how in (("loop_message", "for {}", "message"),
                                ("compare_message", LONG, "message"),
                                ("loop_sigint", "for {}", "sigint"),
                                ("compare_sigint", LONG, "sigint")):
            step = interrupt(km, kc, code, how)
            step["kept_after"] = text(run(kc, "kept + 1"))
            step["small_after"] = text(run(kc, SMALL))
            out[name] = step
        out["same_process"] = km.is_alive() and km.provisioner.process.pid == pid
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
