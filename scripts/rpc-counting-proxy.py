#!/usr/bin/env python3
"""A TCP relay in front of an aria2 RPC port that counts the HTTP requests clients send.

    rpc-counting-proxy.py LISTEN_PORT TARGET_PORT COUNT_FILE

Every request line a client starts (POST, and the GET that opens a WebSocket) adds one to
COUNT_FILE, rewritten after each; WebSocket frames after the upgrade are relayed uncounted.
Used by scripts/bench-remote to compare how often each UI asks the engine.
"""
import asyncio
import sys

listen_port, target_port, count_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
count = 0


def bump():
    global count
    count += 1
    with open(count_file, "w") as f:
        f.write(str(count))


async def relay(reader, writer, counting):
    upgraded = False
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if counting and not upgraded:
                for method in (b"POST ", b"GET "):
                    # A request starts a chunk (clients wait for each answer before the next).
                    if data.startswith(method):
                        bump()
                        if method == b"GET " and b"websocket" in data.lower():
                            upgraded = True
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(
        relay(client_reader, server_writer, True), relay(server_reader, client_writer, False))


async def main():
    bump_file = open(count_file, "w")
    bump_file.write("0")
    bump_file.close()
    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


asyncio.run(main())
