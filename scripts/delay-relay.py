#!/usr/bin/env python3
"""A TCP relay that holds every byte for a fixed time in each direction: a round trip over
loopback as a distant server has it (this kernel has no netem).

    delay-relay.py LISTEN_PORT TARGET_HOST TARGET_PORT ONE_WAY_MS

Bytes keep their order and are not paced otherwise: what is added is latency, not a cap.
The relay listens on 127.0.0.1; it prints "ready" once it does.
"""
import asyncio
import sys
import time


async def carry(reader, writer, delay):
    """Copies reader to writer, each chunk written `delay` seconds after it was read."""
    queue = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(256 * 1024)
            await queue.put((time.monotonic() + delay, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(read(), write())
    except (ConnectionError, OSError):
        writer.close()


async def main():
    listen_port, host, port, one_way_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    delay = one_way_ms / 1000

    async def accept(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(host, port)
        except OSError:
            client_writer.close()
            return
        # The connection itself takes a round trip, as a TCP handshake with a distant server does.
        await asyncio.sleep(2 * delay)
        await asyncio.gather(
            carry(client_reader, server_writer, delay), carry(server_reader, client_writer, delay))
        server_writer.close()
        client_writer.close()

    server = await asyncio.start_server(accept, "127.0.0.1", int(listen_port), backlog=1024)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
