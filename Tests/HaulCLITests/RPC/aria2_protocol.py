#!/usr/bin/env python3
"""aria2's JSON-RPC, spoken raw: the same checks run against haul and against Debian's aria2c,
so that passing both is the evidence that haul answers as aria2 does. Where haul differs on
purpose (directories outside the allowed ones), the check runs against haul only.

usage: aria2_protocol.py --server haul|aria2c --port P --secret S --files URL --slow URL --dl DIR
  --files: a base URL with fast.bin (small), files.meta4 (naming fast.bin twice, as meta-one.bin
  and meta-two.bin) and no 404.bin; --slow: one with slow.bin, served slowly
Exits 0 when every check passes; prints the first that fails.
"""
import argparse
import base64
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

from websockets.sync.client import connect

args = argparse.ArgumentParser()
args.add_argument("--server", choices=["haul", "aria2c"], required=True)
args.add_argument("--port", type=int, required=True)
args.add_argument("--secret", required=True)
args.add_argument("--files", required=True)
args.add_argument("--slow", required=True)
args.add_argument("--dl", required=True)
args = args.parse_args()
URL = f"http://127.0.0.1:{args.port}/jsonrpc"
TOKEN = "token:" + args.secret
GID = re.compile(r"^[0-9a-f]{16}$")


def post(body, headers=None):
    """Posts raw bytes; answers (status, headers, parsed JSON)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(URL, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read())


def call(method, *params, token=True):
    """One call with the secret; answers the reply object."""
    params = ([TOKEN] if token else []) + list(params)
    return post({"jsonrpc": "2.0", "id": "t", "method": method, "params": params})[2]


def result(method, *params):
    reply = call(method, *params)
    assert "result" in reply, f"{method}{params}: {reply}"
    return reply["result"]


def error(reply, code, message=None):
    assert "error" in reply, f"expected an error, got {reply}"
    assert reply["error"]["code"] == code, reply
    if message is not None:
        assert reply["error"]["message"] == message, reply


def wait_for(what, predicate, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def check_envelope():
    status, headers, reply = post({"jsonrpc": "2.0", "id": "v", "method": "aria2.getVersion", "params": [TOKEN]})
    assert status == 200 and reply["id"] == "v" and reply["jsonrpc"] == "2.0", reply
    assert isinstance(reply["result"]["version"], str)
    assert isinstance(reply["result"]["enabledFeatures"], list)
    # A wrong secret: code 1, "Unauthorized".
    error(post({"jsonrpc": "2.0", "id": 1, "method": "aria2.getVersion", "params": ["token:wrong"]})[2], 1, "Unauthorized")
    error(call("aria2.tellActive", token=False), 1, "Unauthorized")
    # Not JSON: a parse error with a null id.
    status, _, reply = post(b"{not json")
    error(reply, -32700)
    assert reply["id"] is None, reply
    # No method: invalid request.
    error(post({"jsonrpc": "2.0", "id": 2})[2], -32600)
    # An unknown method.
    reply = call("aria2.noSuchThing")
    error(reply, 1, "No such method: aria2.noSuchThing")
    # A parameter of the wrong type.
    error(call("aria2.tellWaiting", "zero", 10), 1)
    # A batch: one reply per call, each with its id.
    status, _, replies = post([
        {"jsonrpc": "2.0", "id": "a", "method": "aria2.getGlobalStat", "params": [TOKEN]},
        {"jsonrpc": "2.0", "id": "b", "method": "aria2.getVersion", "params": ["token:wrong"]},
    ])
    assert status == 200 and [r["id"] for r in replies] == ["a", "b"], replies
    assert "result" in replies[0] and replies[1]["error"]["code"] == 1, replies
    # system.multicall: each call carries its own token; the results come one-element arrays.
    multi = result_untokened("system.multicall", [
        {"methodName": "aria2.getGlobalStat", "params": [TOKEN]},
        {"methodName": "aria2.getVersion", "params": ["token:wrong"]},
    ])
    assert isinstance(multi[0], list) and "numActive" in multi[0][0], multi
    assert multi[1]["code"] == 1 and multi[1]["message"] == "Unauthorized", multi
    # A token at the top of a multicall is its first parameter, and not a list of calls.
    error(post({"jsonrpc": "2.0", "id": 3, "method": "system.multicall", "params": [TOKEN, []]})[2], 1)
    # The two listings need no secret.
    methods = result_untokened("system.listMethods")
    for name in ["aria2.addUri", "aria2.tellStatus", "aria2.changePosition", "system.multicall"]:
        assert name in methods, name
    assert "aria2.onDownloadComplete" in result_untokened("system.listNotifications")
    stat = result("aria2.getGlobalStat")
    for key in ["downloadSpeed", "numActive", "numWaiting", "numStopped", "numStoppedTotal"]:
        assert isinstance(stat[key], str), (key, stat)


def result_untokened(method, *params):
    reply = call(method, *params, token=False)
    assert "result" in reply, f"{method}: {reply}"
    return reply["result"]


def check_cors():
    request = urllib.request.Request(URL, method="OPTIONS", headers={
        "Origin": "http://ariang.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type",
    })
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200, response.status
        assert response.headers["Access-Control-Allow-Origin"] == "*", dict(response.headers)
        assert "POST" in response.headers["Access-Control-Allow-Methods"], dict(response.headers)
    _, headers, _ = post({"jsonrpc": "2.0", "id": 1, "method": "aria2.getVersion", "params": [TOKEN]},
                         headers={"Origin": "http://ariang.example"})
    assert headers["Access-Control-Allow-Origin"] == "*", dict(headers)


def add_paused(name, **options):
    base = args.slow if name == "slow.bin" else args.files
    gid = result("aria2.addUri", [base + name], {"pause": "true", **options})
    assert GID.match(gid), gid
    return gid


def waiting_gids(offset=0, num=100):
    return [d["gid"] for d in result("aria2.tellWaiting", offset, num, ["gid"])]


def check_queue():
    gids = [add_paused("slow.bin", out=f"queued-{i}.bin") for i in range(5)]
    assert waiting_gids() == gids, (waiting_gids(), gids)
    # Keys filter: only the keys asked for; numbers are strings.
    status = result("aria2.tellStatus", gids[0], ["gid", "status", "totalLength"])
    assert set(status) == {"gid", "status", "totalLength"}, status
    assert status["status"] == "paused" and status["totalLength"] == "0", status
    whole = result("aria2.tellStatus", gids[0])
    for key in ["completedLength", "downloadSpeed", "connections", "numPieces", "pieceLength"]:
        assert isinstance(whole[key], str), (key, whole)
    assert whole["dir"] == args.dl, whole
    assert whole["files"][0]["path"] == os.path.join(args.dl, "queued-0.bin"), whole["files"]
    assert whole["files"][0]["uris"][0]["uri"] == args.slow + "slow.bin", whole["files"]
    assert result("aria2.getUris", gids[0])[0]["uri"] == args.slow + "slow.bin"
    assert result("aria2.getFiles", gids[0])[0]["index"] == "1"
    # A GID may be shortened to a unique prefix... of 16 digits, here the whole.
    assert result("aria2.tellStatus", gids[1], ["gid"])["gid"] == gids[1]
    error(call("aria2.tellStatus", "ffffffffffffffff"), 1)
    # Paging: forwards, and backwards from the end with a negative offset.
    assert waiting_gids(1, 2) == gids[1:3]
    assert waiting_gids(-1, 2) == [gids[4], gids[3]]
    assert waiting_gids(10, 2) == []
    # changePosition: set, relative, from the end; answers the new position.
    assert result("aria2.changePosition", gids[4], 0, "POS_SET") == 0
    assert waiting_gids() == [gids[4]] + gids[:4], waiting_gids()
    assert result("aria2.changePosition", gids[4], 2, "POS_CUR") == 2
    assert waiting_gids() == [gids[0], gids[1], gids[4], gids[2], gids[3]], waiting_gids()
    assert result("aria2.changePosition", gids[0], 0, "POS_END") == 4
    assert waiting_gids() == [gids[1], gids[4], gids[2], gids[3], gids[0]], waiting_gids()
    assert result("aria2.changePosition", gids[0], -100, "POS_CUR") == 0
    # addUri with a position.
    placed = result("aria2.addUri", [args.slow + "slow.bin"], {"pause": "true", "out": "placed.bin"}, 1)
    assert waiting_gids()[1] == placed, waiting_gids()
    # addUri with several URIs: sources of one file, all listed by getUris.
    mirrored = [args.files + "fast.bin", args.files + "fast.bin?mirror=2"]
    several = result("aria2.addUri", mirrored, {"pause": "true", "out": "mirrored.bin"})
    assert [u["uri"] for u in result("aria2.getUris", several)] == mirrored, result("aria2.getUris", several)
    # addMetalink: a base64 Metalink 4 document; one GID per file.
    document = (
        '<?xml version="1.0" encoding="UTF-8"?><metalink xmlns="urn:ietf:params:xml:ns:metalink">'
        f'<file name="from-metalink.bin"><url priority="1">{args.files}fast.bin</url>'
        f'<url priority="2">{args.files}fast.bin?mirror=3</url></file></metalink>'
    )
    metalinked = result("aria2.addMetalink", base64.b64encode(document.encode()).decode(), {"pause": "true"})
    assert isinstance(metalinked, list) and len(metalinked) == 1 and GID.match(metalinked[0]), metalinked
    listed = sorted(u["uri"] for u in result("aria2.getUris", metalinked[0]))
    assert listed == sorted([args.files + "fast.bin", args.files + "fast.bin?mirror=3"]), listed
    error(call("aria2.addMetalink", base64.b64encode(b"<metalink><file").decode()), 1)
    for gid in [several] + metalinked:
        assert result("aria2.remove", gid) == gid
    # getOption / changeOption / global options.
    assert result("aria2.changeOption", gids[2], {"max-download-limit": "100K"}) == "OK"
    options = result("aria2.getOption", gids[2])
    assert options["max-download-limit"] == str(100 * 1024), options
    assert options["dir"] == args.dl, options
    # A download's own tries, as aria2 counts them (every attempt).
    tried = add_paused("fast.bin", **{"max-tries": "3", "out": "tried.bin"})
    assert result("aria2.getOption", tried)["max-tries"] == "3"
    result("aria2.forceRemove", tried)
    assert result("aria2.changeGlobalOption", {"max-concurrent-downloads": "4"}) == "OK"
    assert result("aria2.getGlobalOption")["max-concurrent-downloads"] == "4"
    assert result("aria2.changeGlobalOption", {"max-overall-download-limit": "0"}) == "OK"
    # Pause and unpause: only what can be.
    error(call("aria2.pause", gids[3]), 1)
    assert result("aria2.unpause", gids[3]) == gids[3]
    wait_for("active", lambda: result("aria2.tellStatus", gids[3], ["status"])["status"] in ("active", "waiting"))
    assert result("aria2.pause", gids[3]) == gids[3]
    wait_for("paused", lambda: result("aria2.tellStatus", gids[3], ["status"])["status"] == "paused")
    # remove of a paused download: gone from the queue, and no result kept.
    assert result("aria2.remove", gids[3]) == gids[3]
    assert gids[3] not in waiting_gids()
    error(call("aria2.tellStatus", gids[3]), 1)
    # remove of a running one: "removed", until its result is removed.
    assert result("aria2.unpause", gids[2]) == gids[2]
    wait_for("active", lambda: result("aria2.tellStatus", gids[2], ["status"])["status"] == "active")
    assert result("aria2.remove", gids[2]) == gids[2]
    wait_for("removed", lambda: result("aria2.tellStatus", gids[2], ["status"])["status"] == "removed")
    assert gids[2] in [d["gid"] for d in result("aria2.tellStopped", 0, 100, ["gid"])]
    assert result("aria2.removeDownloadResult", gids[2]) == "OK"
    error(call("aria2.tellStatus", gids[2]), 1)
    # Clean up the queue for the next checks.
    for gid in waiting_gids():
        assert result("aria2.forceRemove", gid) == gid
    wait_for("an empty queue", lambda: not waiting_gids())
    assert result("aria2.purgeDownloadResult") == "OK"
    assert result("aria2.tellStopped", 0, 100) == []


def check_notifications_and_outcomes():
    with connect(f"ws://127.0.0.1:{args.port}/jsonrpc", open_timeout=10) as ws:
        # Calls work over the WebSocket too.
        ws.send(json.dumps({"jsonrpc": "2.0", "id": "w", "method": "aria2.getVersion", "params": [TOKEN]}))
        reply = receive(ws, lambda m: m.get("id") == "w")
        assert "version" in reply["result"], reply
        gid = add_paused("fast.bin", out="notified.bin")
        assert result("aria2.unpause", gid) == gid
        seen = []
        receive(ws, lambda m: record(seen, m, gid, "aria2.onDownloadComplete"))
        assert "aria2.onDownloadStart" in seen, seen
        done = result("aria2.tellStatus", gid)
        assert done["status"] == "complete", done
        assert done["completedLength"] == done["totalLength"] != "0", done
        with open(os.path.join(args.dl, "notified.bin"), "rb") as got:
            assert len(got.read()) == int(done["totalLength"])
        # `out` with a folder: the file is saved in that folder, made below `dir`.
        nested = result("aria2.addUri", [args.files + "fast.bin"], {"out": "nested/deeper/notified.bin"})
        receive(ws, lambda m: record([], m, nested, "aria2.onDownloadComplete"))
        placed = result("aria2.tellStatus", nested, ["status", "files", "totalLength"])
        where = os.path.join(args.dl, "nested", "deeper", "notified.bin")
        assert placed["status"] == "complete" and placed["files"][0]["path"] == where, placed
        assert os.path.getsize(where) == int(placed["totalLength"]), placed
        # A missing file: an error with aria2's "resource not found" code.
        missing = result("aria2.addUri", [args.files + "404.bin"], {"out": "missing.bin"})
        receive(ws, lambda m: record([], m, missing, "aria2.onDownloadError"))
        failed = result("aria2.tellStatus", missing, ["status", "errorCode", "errorMessage"])
        assert failed["status"] == "error" and failed["errorCode"] == "3", failed
        assert failed["errorMessage"], failed


def check_metalink_url_followers():
    # A URL that serves a Metalink: the download added names, in `followedBy`, the downloads of
    # the Metalink's files, each of which names it in `following` (aria2c: the Metalink's own
    # download is followed by one per file; haul: the first file is followed by the others).
    gid = result("aria2.addUri", [args.files + "files.meta4"])

    def all_complete():
        status = result("aria2.tellStatus", gid)
        if status["status"] != "complete" or not status.get("followedBy"):
            return None
        followers = [result("aria2.tellStatus", f) for f in status["followedBy"]]
        if any(f["status"] != "complete" for f in followers):
            return None
        return status, followers

    status, followers = wait_for("the Metalink's files", all_complete)
    for follower in followers:
        assert follower["following"] == gid, follower
    only = result("aria2.tellStatus", followers[0]["gid"], ["following"])
    assert only == {"following": gid}, only
    names = {os.path.basename(d["files"][0]["path"]) for d in [status] + followers}
    assert {"meta-one.bin", "meta-two.bin"} <= names, names
    for name in ["meta-one.bin", "meta-two.bin"]:
        assert os.path.getsize(os.path.join(args.dl, name)) == int(followers[0]["totalLength"]), name


def record(seen, message, gid, last):
    if message.get("params") and message["params"][0].get("gid") == gid:
        seen.append(message["method"])
        return message["method"] == last
    return False


def receive(ws, predicate, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.time())))
        if predicate(message):
            return message
    raise AssertionError("no such message")


def check_directory_rule():
    # haul only: aria2c writes wherever a call says, which is how its RPC has been used to
    # overwrite ~/.ssh/authorized_keys; haul refuses and adds nothing.
    before = result("aria2.getGlobalStat")
    reply = call("aria2.addUri", [args.files + "fast.bin"], {"dir": "/tmp/../etc", "pause": "true"})
    error(reply, 1)
    assert "outside" in reply["error"]["message"], reply
    reply = call("aria2.addUri", [args.files + "fast.bin"], {"dir": args.dl + "/../..", "pause": "true"})
    error(reply, 1)
    assert result("aria2.getGlobalStat") == before
    # `out` may name folders below `dir`, not a way out of it (aria2c writes there too).
    reply = call("aria2.addUri", [args.files + "fast.bin"], {"out": "../../escaped.bin", "pause": "true"})
    error(reply, 1)
    assert "leads out of the download's folder" in reply["error"]["message"], reply
    assert result("aria2.getGlobalStat") == before
    # Nor through a link in the download directory: an `out` folder is checked as `dir` is.
    link = os.path.join(args.dl, "to-etc")
    os.symlink("/etc", link)
    reply = call("aria2.addUri", [args.files + "fast.bin"], {"out": "to-etc/cron.d/x", "pause": "true"})
    os.unlink(link)
    error(reply, 1)
    assert "outside" in reply["error"]["message"], reply
    assert result("aria2.getGlobalStat") == before
    # A directory under the download directory is fine, and made.
    gid = result("aria2.addUri", [args.files + "fast.bin"], {"dir": args.dl + "/sub", "pause": "true"})
    assert result("aria2.getOption", gid)["dir"] == args.dl + "/sub"
    assert os.path.isdir(args.dl + "/sub")
    result("aria2.forceRemove", gid)
    # A body over 2 MiB is refused with a JSON-RPC error.
    status, _, reply = post(b'{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["' + b"x" * (3 << 20) + b'"]}')
    assert status == 413 and reply["error"]["code"] == -32600, (status, reply)
    # addTorrent: a clear refusal.
    reply = call("aria2.addTorrent", "AAAA")
    error(reply, 1)
    assert "torrent" in reply["error"]["message"], reply


def wait_for_server():
    deadline = time.time() + 15
    while True:
        try:
            return post({"jsonrpc": "2.0", "id": 0, "method": "system.listMethods"})
        except urllib.error.URLError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


wait_for_server()
check_envelope()
check_cors()
check_queue()
check_notifications_and_outcomes()
check_metalink_url_followers()
if args.server == "haul":
    check_directory_rule()
print("all checks passed against", args.server)
