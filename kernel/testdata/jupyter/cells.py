"""Run cells on a kernel through jupyter_client and report what came back.

    /usr/bin/python3 cells.py KERNEL_NAME < cells.json

cells.json is a list of {"code": ..., "allow_stdin": bool, "input": [lines]}.
Each cell runs with kc.execute; an input_request on the stdin channel is
answered with the next of its lines (or, when there is none left, the cell
is recorded as having asked for more). Prints one JSON list: per cell, the
reply's status, ename and evalue, its outputs (stream text by name,
execute_result text/plain, error ename) and the input prompts it sent.
The caller (cmd/routelab's tests) decides what is right.
"""

import json
import queue
import sys

from jupyter_client.manager import KernelManager

KERNEL = sys.argv[1] if len(sys.argv) > 1 else "routelab"
TIMEOUT = 30


def run(kc, cell):
    answers = list(cell.get("input", []))
    mid = kc.execute(cell["code"], allow_stdin=cell.get("allow_stdin", False))
    got = {"code": cell["code"], "stdout": "", "stderr": "", "results": [], "errors": [], "prompts": [], "unanswered": 0}
    idle = False
    while not idle:
        try:
            req = kc.get_stdin_msg(timeout=0.02)
            if req["parent_header"].get("msg_id") == mid and req["msg_type"] == "input_request":
                got["prompts"].append(req["content"]["prompt"])
                if answers:
                    kc.input(answers.pop(0))
                else:
                    got["unanswered"] += 1
        except queue.Empty:
            pass
        try:
            msg = kc.get_iopub_msg(timeout=0.02)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != mid:
            continue
        t, c = msg["msg_type"], msg["content"]
        if t == "stream":
            got[c["name"]] += c["text"]
        elif t == "execute_result":
            got["results"].append(c["data"].get("text/plain"))
        elif t == "error":
            got["errors"].append(c["ename"])
        elif t == "status" and c["execution_state"] == "idle":
            idle = True
    while True:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == mid:
            break
    c = reply["content"]
    got.update(status=c["status"], ename=c.get("ename"), evalue=c.get("evalue"))
    return got


def main():
    cells = json.load(sys.stdin)
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)
        out = [run(kc, cell) for cell in cells]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
