"""Drive a kernel through a real Jupyter Notebook server, as a browser does.

    /usr/bin/python3 notebook_server.py KERNEL_NAME PORT

Starts `python3 -m notebook` on PORT, starts the kernel through the REST API,
executes cells over the kernel's websocket, interrupts a busy cell through
the REST API, and prints one JSON object describing what came back. Cells are
written in routelab's echo test language.
"""

import json
import subprocess
import sys
import uuid

from tornado import gen, httpclient, ioloop, websocket

KERNEL, PORT = sys.argv[1], int(sys.argv[2])
BASE = "127.0.0.1:%d" % PORT
TOKEN = "routelab-test"


def url(path, scheme="http"):
    return "%s://%s%s?token=%s" % (scheme, BASE, path, TOKEN)


async def send(ws, msg_type, content):
    msg_id = uuid.uuid4().hex
    await ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "username": "test", "session": "test", "msg_type": msg_type,
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "content": content}))
    return msg_id


async def nudge(ws):
    """Wait until the server's iopub subscription is live, as jupyter_client does.

    A ZeroMQ subscriber misses what is published before its subscription
    reaches the publisher, so the first cell's output could be lost. Repeat
    kernel_info until its status message comes back on iopub."""
    pending = None  # a read that timed out is kept, or it would swallow a later message
    for _ in range(100):
        msg_id = await send(ws, "kernel_info_request", {})
        deadline = ioloop.IOLoop.current().time() + 0.2
        while True:
            if pending is None:
                pending = ws.read_message()
            try:
                m = json.loads(await gen.with_timeout(deadline, pending))
            except gen.TimeoutError:
                break
            pending = None
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status":
                return
    raise RuntimeError("no iopub traffic from the kernel through the server")


async def execute(ws, code):
    msg_id = await send(ws, "execute_request", {
        "code": code, "silent": False, "store_history": True, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True})
    got = {"reply": None, "iopub": []}
    while got["reply"] is None or not got["iopub"] or got["iopub"][-1] != "status:idle":
        m = json.loads(await ws.read_message())
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["channel"] == "shell":
            got["reply"] = m["content"]
        elif m["msg_type"] == "status":
            got["iopub"].append("status:" + m["content"]["execution_state"])
        else:
            got["iopub"].append(m["msg_type"])
            if m["msg_type"] in ("stream", "execute_result"):
                got[m["msg_type"]] = m["content"].get("text") or m["content"]["data"]["text/plain"]
    return got


async def main():
    client = httpclient.AsyncHTTPClient()
    for _ in range(200):
        try:
            await client.fetch(url("/api"))
            break
        except Exception:
            await gen.sleep(0.05)
    r = await client.fetch(url("/api/kernels"), method="POST", body=json.dumps({"name": KERNEL}))
    kid = json.loads(r.body)["id"]
    ws = await websocket.websocket_connect(url("/api/kernels/%s/channels" % kid, "ws"))
    await nudge(ws)
    out = {"first": await execute(ws, "x = 3\nprint hi $x\necho 7")}
    busy = gen.convert_yielded(execute(ws, "loop"))
    await gen.sleep(0.3)
    await client.fetch(url("/api/kernels/%s/interrupt" % kid), method="POST", body="")
    out["interrupted"] = await gen.with_timeout(ioloop.IOLoop.current().time() + 10, busy)
    out["after"] = await execute(ws, "x")
    await client.fetch(url("/api/kernels/%s" % kid), method="DELETE")
    ws.close()
    print(json.dumps(out))


server = subprocess.Popen(
    [sys.executable, "-m", "notebook", "--no-browser", "--allow-root", "--port=%d" % PORT,
     "--NotebookApp.token=" + TOKEN, "--NotebookApp.open_browser=False"],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
try:
    ioloop.IOLoop.current().run_sync(main, timeout=60)
finally:
    server.terminate()
    log = server.communicate(timeout=10)[1].decode(errors="replace")
    sys.stderr.write(log)
