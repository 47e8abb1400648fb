"""An aria2 JSON-RPC engine that answers oddly, for haul's remote UI to survive.

It lists downloads with a status aria2 never sends, missing keys and numbers of the wrong
type, and then behaves as the file named by --mode says, read at every request:
  good     well-formed answers
  garbage  an answer that is not JSON
  cut      half an answer, then the connection closes
  slow     a good answer after three seconds
  huge     5,000 downloads in the waiting list
"""
import argparse
import http.server
import json
import time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--mode", required=True)
args = parser.parse_args()


def mode():
    try:
        with open(args.mode) as f:
            return f.read().strip() or "good"
    except OSError:
        return "good"


ODD = [
    {"gid": "00000000000000a1", "status": "seeding-someday", "totalLength": "1000", "completedLength": "10",
     "files": [{"path": "/far/odd\u001b[31mname.bin", "uris": [{"uri": "http://x/odd"}]}], "dir": "/far"},
    {"gid": "00000000000000a2", "status": "active", "totalLength": 5000, "completedLength": "oops",
     "downloadSpeed": "100"},
    {"status": "active"},
    "not even an object",
]


def answer(method, params):
    if method == "aria2.getVersion":
        return {"version": "9.9.9", "enabledFeatures": []}
    if method == "aria2.getGlobalStat":
        waiting = "5000" if mode() == "huge" else "1"
        return {"numActive": "1", "numWaiting": waiting, "numStopped": "0", "downloadSpeed": "100"}
    if method == "aria2.tellActive":
        return ODD[1:]
    if method == "aria2.tellWaiting":
        if mode() == "huge":
            return [{"gid": "%016x" % (0x100000 + i), "status": "waiting", "totalLength": "10",
                     "files": [{"path": "/far/f%d.bin" % i}], "dir": "/far"} for i in range(5000)]
        return ODD[:1]
    if method == "aria2.tellStopped":
        return []
    if method == "aria2.getGlobalOption":
        return {"max-overall-download-limit": "0"}
    return "OK"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        now = mode()
        if body["method"] == "system.multicall":
            result = [[answer(c["methodName"], c.get("params", []))] for c in body["params"][0]]
        else:
            result = answer(body["method"], body.get("params", []))
        data = json.dumps({"jsonrpc": "2.0", "id": body.get("id"), "result": result}).encode()
        if now == "garbage":
            data = b"<html>surprise</html>"
        if now == "slow":
            time.sleep(3)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if now == "cut":
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(data)


http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()
