"""Kill a routelab kernel's session in every way a cell can, through jupyter_client.

    /usr/bin/python3 session_death.py KERNEL_NAME

Starts the kernel with jupyter_client's KernelManager (its environment sets
ROUTELAB_MEMORY_LIMIT, so running out of memory is quick and safe), then:

  cells        runs cells that end the session's process (concurrent map
               writes, a compiled call that throws, allocating without end),
               each followed by cells that show what survives, and reports
               each cell's reply and iopub messages
  idle         kills the worker between cells (SIGKILL) and runs a cell
  shutdown     shutdown_request: is the worker gone when the kernel is?
  restart      restart_kernel(): likewise for the first kernel's worker
  sigterm      SIGTERM to the kernel process only
  sigkill      SIGKILL to the kernel process only: the worker must notice

and prints one JSON object; the caller (cmd/routelab's tests) decides what
is right. The kernel's standard error (its log) is included.
"""

import json
import os
import signal
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

KERNEL = sys.argv[1] if len(sys.argv) > 1 else "routelab"

MAPS = """m := map[int]int{}
for i := 0; i < 8; i++ {
	go func() {
		for j := 0; ; j++ {
			m[j] = j
		}
	}()
}
select {}"""
THROW = """import "sync"

var mu sync.Mutex
mu.Unlock()"""
ALLOCATE = """var keep [][]byte
for {
	b := make([]byte, 64<<20)
	b[0] = 1
	keep = append(keep, b)
}"""


def children(pid):
    """Process ids of pid's children."""
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone_within(pid, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.01)
    return False


def worker_of(k):
    """The kernel's worker process, once it has started."""
    deadline = time.time() + 10
    while time.time() < deadline:
        kids = children(k.km.provisioner.pid)
        if kids:
            return kids[0]
        time.sleep(0.01)
    raise RuntimeError("the kernel started no worker")


class Kernel:
    def __init__(self):
        self.log = tempfile.TemporaryFile()
        self.km = KernelManager(kernel_name=KERNEL)
        env = dict(os.environ, ROUTELAB_MEMORY_LIMIT="1GiB")
        self.km.start_kernel(env=env, stderr=self.log)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=30)
        self.pid = self.km.provisioner.pid

    def run(self, code):
        iopub = []

        def hook(msg):
            kind = msg["msg_type"]
            if kind == "status":
                kind += ":" + msg["content"]["execution_state"]
            iopub.append({"type": kind, "content": msg["content"]})

        reply = self.kc.execute_interactive(code, timeout=60, output_hook=hook)
        return {"code": code, "reply": reply["content"], "iopub": iopub}

    def logs(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self):
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)


def cells():
    k = Kernel()
    try:
        first_worker = worker_of(k)
        steps = [k.run(c) for c in ("x := 41", MAPS, "x", "y := 2\ny", THROW, ALLOCATE, "y := 3\ny + 1")]
        return {"steps": steps, "kernel_alive": k.km.is_alive(), "same_kernel": k.km.provisioner.pid == k.pid,
                "worker_changed": worker_of(k) != first_worker, "log": k.logs()}
    finally:
        k.close()


def idle():
    k = Kernel()
    try:
        k.run("x := 1")
        w = worker_of(k)
        os.kill(w, signal.SIGKILL)
        gone_within(w, 5)
        time.sleep(0.5)  # the kernel notices and starts a fresh worker
        return {"after": k.run("3"), "kernel_alive": k.km.is_alive()}
    finally:
        k.close()


def shutdown():
    k = Kernel()
    w = worker_of(k)
    k.kc.stop_channels()
    k.km.shutdown_kernel(now=False)  # a shutdown_request, then waiting for the process
    return {"worker_gone": gone_within(w, 5), "kernel_gone": not alive(k.pid)}


def restart():
    k = Kernel()
    try:
        w = worker_of(k)
        k.km.restart_kernel(now=False)
        k.kc.wait_for_ready(timeout=30)
        fresh = worker_of(k)
        return {"old_worker_gone": gone_within(w, 5), "new_worker": fresh != w and alive(fresh),
                "after": k.run("1 + 1")}
    finally:
        k.close()


def kill_kernel(sig):
    k = Kernel()
    try:
        k.run("x := 1")
        w = worker_of(k)
        os.kill(k.pid, sig)
        return {"kernel_gone": gone_within(k.pid, 10), "worker_gone": gone_within(w, 10)}
    finally:
        k.close()


def main():
    out = {"cells": cells(), "idle": idle(), "shutdown": shutdown(), "restart": restart(),
           "sigterm": kill_kernel(signal.SIGTERM), "sigkill": kill_kernel(signal.SIGKILL)}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
